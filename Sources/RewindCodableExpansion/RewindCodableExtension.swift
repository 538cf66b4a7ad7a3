import SwiftSyntax
import SwiftSyntaxMacros

/// `@RewindCodable`: writes `encodeTree(_:)` and `init(tree:_:)` for a struct or an enum, the
/// same trees its synthesized `Codable` builds and reads, with no `Encoder` in between.
public struct RewindCodableExtension: ExtensionMacro {
    /// Raw types a raw-value enum may name first; its `Codable` is then its raw value's.
    static let rawTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
    ]
    /// Protocols that may come first in a case enum's inheritance list.
    static let knownProtocols: Set<String> = [
        "Codable", "Encodable", "Decodable", "Equatable", "Hashable", "Sendable", "CaseIterable", "Identifiable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Comparable", "Error",
    ]

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        do {
            try refuseCustomCoding(in: declaration.memberBlock)
            let access = accessModifier(of: declaration)
            let members: String
            if let structure = declaration.as(StructDeclSyntax.self) {
                let properties = try StoredProperty.all(in: structure.memberBlock)
                let labels = StructCoder.initializerLabels(of: structure, properties: properties)
                members = StructCoder(properties: properties, access: access, initializerLabels: labels).members
            } else if let enumeration = declaration.as(EnumDeclSyntax.self) {
                if try isRawValueEnum(enumeration) {
                    members = RawEnumCoder(access: access).members
                } else {
                    members = EnumCoder(cases: try CodedCase.all(in: enumeration.memberBlock), access: access).members
                }
            } else {
                throw DiagnosticError(node, .notStructOrEnum)
            }
            let conformances = protocols.isEmpty ? "" : ": " + protocols.map(\.trimmedDescription).joined(separator: ", ")
            let decl: DeclSyntax = "extension \(type.trimmed)\(raw: conformances) {\n\(raw: members)\n}"
            guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
            return [extensionDecl]
        } catch let error as DiagnosticError {
            context.diagnose(error.diagnostic)
            return []
        }
    }

    /// Throws if the type writes its own coding, which the macro would not follow.
    static func refuseCustomCoding(in members: MemberBlockSyntax) throws(DiagnosticError) {
        for member in members.members {
            let decl = member.decl
            if let nested = decl.asProtocol((any NamedDeclSyntax).self), nested.name.text == "CodingKeys" {
                throw DiagnosticError(decl, .customCodingKeys)
            }
            if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == "CodingKeys" {
                throw DiagnosticError(decl, .customCodingKeys)
            }
            if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "to"
            {
                throw DiagnosticError(decl, .customCoding)
            }
            if let initializer = decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                throw DiagnosticError(decl, .customCoding)
            }
        }
    }

    /// Whether `enumeration` has a raw type, which it must name first.
    static func isRawValueEnum(_ enumeration: EnumDeclSyntax) throws(DiagnosticError) -> Bool {
        guard let first = enumeration.inheritanceClause?.inheritedTypes.first?.type else { return false }
        let name = first.trimmedDescription
        if rawTypes.contains(name) || rawTypes.contains(name.replacingSwiftPrefix) { return true }
        if knownProtocols.contains(name) || knownProtocols.contains(name.replacingSwiftPrefix) { return false }
        throw DiagnosticError(first, .unknownFirstInheritedType)
    }

    /// The modifier the members need to witness the conformances as visibly as the type.
    static func accessModifier(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

extension String {
    /// `Swift.String` as `String`.
    fileprivate var replacingSwiftPrefix: String {
        hasPrefix("Swift.") ? String(dropFirst(6)) : self
    }
}
