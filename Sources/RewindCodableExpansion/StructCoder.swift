import SwiftSyntax

/// The members `@RewindCodable` writes for a struct: an object of its stored properties.
struct StructCoder {
    let properties: [StoredProperty]
    let access: String
    /// The labels of an initializer of every decoded property (``initializerLabels(of:properties:)``).
    var initializerLabels: [String]? = nil

    var members: String {
        // Appended in the order of their keys' bytes, the object's own order, so that building
        // it sorts nothing.
        let encoded = properties.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        let encodes = encoded.map { "    try object.encode(self.\(escaped($0.name)), forKey: \(literal($0.name)))" }
        let decodes = properties.filter(\.isDecoded).map {
            "    self.\(escaped($0.name)) = try object.decode(\($0.type.map { "\($0).self, " } ?? "")forKey: \(literal($0.name)))"
        }
        let writes = encoded.map { "    try writer.member(\(literal($0.name)), self.\(escaped($0.name)))" }
        let writeBody = (["    writer.beginObject()"] + writes + ["    writer.endObject()"]).joined(separator: "\n")
        let encodeBody =
            encodes.isEmpty
            ? "    encoder.object(capacity: 0).finish()"
            : "    var object = encoder.object(capacity: \(properties.count))\n\(encodes.joined(separator: "\n"))\n    return object.finish()"
        let decodeBody =
            decodes.isEmpty
            ? "    _ = try decoder.object(tree, of: Self.self)"
            : "    let object = try decoder.object(tree, of: Self.self)\n\(decodes.joined(separator: "\n"))"
        return """
            \(access)func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
            \(encodeBody)
            }
            \(access)init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
            \(decodeBody)
            }
            \(access)func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
            \(writeBody)
            }
            """ + (initializerLabels.map { "\n\(access)static var initializerLabels: [String]? { [\($0.map(literal).joined(separator: ", "))] }" } ?? "")
    }

    /// The labels of an initializer that takes every property a decoder sets, in order: the
    /// memberwise one when the struct declares no initializer (and no property is private),
    /// else one of its own whose labels are those properties, that neither fails nor throws;
    /// nil when there is none.
    static func initializerLabels(of structure: StructDeclSyntax, properties: [StoredProperty]) -> [String]? {
        let decoded = properties.filter(\.isDecoded)
        let names = decoded.map(\.name)
        let initializers = structure.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        if initializers.isEmpty {
            return properties.contains(where: \.isPrivate) ? nil : names
        }
        for initializer in initializers {
            let modifiers = Set(initializer.modifiers.map(\.name.text))
            guard initializer.optionalMark == nil, initializer.signature.effectSpecifiers == nil,
                !modifiers.contains("private"), !modifiers.contains("fileprivate")
            else { continue }
            let labels = initializer.signature.parameterClause.parameters.map(\.firstName.identifierName)
            if labels == names { return names }
        }
        return nil
    }
}

/// `name` as a Swift identifier: in backticks, which every name may take.
func escaped(_ name: String) -> String {
    "`\(name)`"
}

/// `text` as a Swift string literal.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
