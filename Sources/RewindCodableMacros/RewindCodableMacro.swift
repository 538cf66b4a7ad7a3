import RewindCodableExpansion
import SwiftSyntax
import SwiftSyntaxMacros

/// `@RewindCodable` as the compiler finds it, by this module's name
/// (`#externalMacro(module: "RewindCodableMacros", …)`); what it writes and refuses is
/// ``RewindCodableExtension``'s, which the macro's tests expand without this plugin.
public struct RewindCodableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try RewindCodableExtension.expansion(of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}
