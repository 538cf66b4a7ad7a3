import SwiftDiagnostics
import SwiftSyntax

/// A refusal of `@RewindCodable`, and the syntax it points at.
struct DiagnosticError: Error {
    let diagnostic: Diagnostic

    init(_ node: some SyntaxProtocol, _ message: RewindCodableDiagnostic) {
        diagnostic = Diagnostic(node: Syntax(node), message: message)
    }
}
