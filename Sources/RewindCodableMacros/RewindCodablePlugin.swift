import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that carries `@RewindCodable`.
@main
struct RewindCodablePlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [RewindCodableMacro.self]
}
