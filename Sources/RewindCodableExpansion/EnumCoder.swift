/// The members `@RewindCodable` writes for an enum with cases: an object of one key, the
/// case's name, around an object of its associated values.
struct EnumCoder {
    let cases: [CodedCase]
    let access: String

    var members: String {
        var encodes: [String] = []
        var decodes: [String] = []
        var writes: [String] = []
        for coded in cases {
            let name = literal(coded.name)
            if coded.keys.isEmpty {
                encodes.append("    case .\(escaped(coded.name)):\n        return encoder.caseObject(\(name), encoder.emptyObject)")
                writes.append("    case .\(escaped(coded.name)):\n        writer.caseObject(\(name)) { _ in }")
                decodes.append(
                    "    case \(name):\n        _ = try decoder.object(payload, of: Self.self)\n        self = .\(escaped(coded.name))")
                continue
            }
            let bindings = coded.keys.indices.map { "let v\($0)" }.joined(separator: ", ")
            let order = coded.keys.indices.sorted {
                Array(coded.keys[$0].utf8).lexicographicallyPrecedes(Array(coded.keys[$1].utf8))
            }
            let values = order.map { "        try payload.encode(v\($0), forKey: \(literal(coded.keys[$0])))" }
            let members = order.map { "            try writer.member(\(literal(coded.keys[$0])), v\($0))" }
            writes.append(
                """
                    case .\(escaped(coded.name))(\(bindings)):
                        try writer.caseObject(\(name)) { writer in
                \(members.joined(separator: "\n"))
                        }
                """)
            encodes.append(
                """
                    case .\(escaped(coded.name))(\(bindings)):
                        var payload = encoder.nested(forKey: \(name)).object(capacity: \(coded.keys.count))
                \(values.joined(separator: "\n"))
                        return encoder.caseObject(\(name), payload.finish())
                """)
            let arguments = coded.keys.enumerated().map { index, key in
                let label = key == "_\(index)" ? "" : "\(argumentLabel(key)): "
                return "\(label)try object.decode(\(coded.types[index]).self, forKey: \(literal(key)))"
            }
            decodes.append(
                """
                    case \(name):
                        let object = try decoder.object(payload, of: Self.self)
                        self = .\(escaped(coded.name))(\(arguments.joined(separator: ", ")))
                """)
        }
        return """
            \(access)func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
                switch self {
            \(encodes.joined(separator: "\n"))
                }
            }
            \(access)init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
                let (key, payload) = try decoder.caseObject(tree, of: Self.self)
                switch key {
            \(decodes.joined(separator: "\n"))
                default:
                    _ = payload
                    throw decoder.unknownCase(key, of: Self.self)
                }
            }
            \(access)func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
                switch self {
            \(writes.joined(separator: "\n"))
                }
            }
            """
    }
}

/// The members `@RewindCodable` writes for an enum with a raw type: its raw value.
struct RawEnumCoder {
    let access: String

    var members: String {
        """
        \(access)func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
            try encoder.encode(self.rawValue)
        }
        \(access)init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
            guard let value = Self(rawValue: try decoder.decode(tree)) else {
                throw RewindJSON.JSONTreeMismatch(Self.self, "no case of that raw value")
            }
            self = value
        }
        \(access)func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
            try writer.value(self.rawValue)
        }
        """
    }
}

/// `name` as an argument label: only `inout` needs backticks there.
func argumentLabel(_ name: String) -> String {
    name == "inout" ? escaped(name) : name
}
