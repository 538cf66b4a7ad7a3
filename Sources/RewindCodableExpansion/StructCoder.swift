/// The members `@RewindCodable` writes for a struct: an object of its stored properties.
struct StructCoder {
    let properties: [StoredProperty]
    let access: String

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
            """
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
