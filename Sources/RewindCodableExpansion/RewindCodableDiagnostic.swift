import SwiftDiagnostics

/// Why `@RewindCodable` cannot write a coder for a type: each a shape whose `Codable` it
/// cannot follow exactly, so it refuses rather than write one that might differ.
enum RewindCodableDiagnostic: String, DiagnosticMessage, Error {
    case notStructOrEnum
    case customCodingKeys
    case customCoding
    case propertyWrapper
    case lazyProperty
    case destructuringPattern
    case unknownFirstInheritedType
    case internalParameterName

    var message: String {
        switch self {
        case .notStructOrEnum:
            "@RewindCodable applies to a struct or an enum"
        case .customCodingKeys:
            "@RewindCodable follows synthesized Codable, and this type declares its own CodingKeys"
        case .customCoding:
            "@RewindCodable follows synthesized Codable, and this type declares its own encode(to:) or init(from:)"
        case .propertyWrapper:
            "@RewindCodable cannot follow how a property wrapper encodes; remove the attribute or the macro"
        case .lazyProperty:
            "@RewindCodable does not support lazy properties"
        case .destructuringPattern:
            "@RewindCodable needs one name per stored property"
        case .unknownFirstInheritedType:
            "@RewindCodable cannot tell whether the first inherited type is a raw type; list Codable first, or the raw type by its name (String, Int, ...)"
        case .internalParameterName:
            "@RewindCodable does not support internal names on associated values; write `label:` or leave the value unlabeled"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "RewindCodable", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
