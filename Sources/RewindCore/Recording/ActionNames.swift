import RewindJSON

/// The names of a session's actions, read once per shape of encoded action.
///
/// `DescribedAction.name` by default reads the case by reflection, which cost a quarter of the
/// writer's time for the login flow. A name depends on which cases an action is made of, not
/// on its payload, and the encoded action shows those cases as its keys: so the writer asks an
/// action for its name only the first time its keys, with every scalar left out, are seen.
struct ActionNames {
    private var names: [String: String] = [:]
    private var shape: [UInt8] = []
    /// Shapes beyond this many (payloads with keys of their own, like dictionaries) are not
    /// remembered, so memory stays bounded.
    private let limit = 4_096

    /// The name of `action`, whose encoded form is `encoded`.
    mutating func name(of action: some DescribedAction, encoded: JSONValue) -> String {
        shape.removeAll(keepingCapacity: true)
        Self.appendShape(of: encoded, to: &shape)
        let key = String(decoding: shape, as: UTF8.self)
        if let name = names[key] { return name }
        let name = action.name
        if names.count < limit { names[key] = name }
        return name
    }

    /// Writes the keys and nesting of `value`, each scalar as `_`.
    private static func appendShape(of value: JSONValue, to shape: inout [UInt8]) {
        switch value {
        case let .object(object):
            shape.append(UInt8(ascii: "{"))
            for (key, child) in object {
                shape.append(contentsOf: key.utf8)
                shape.append(UInt8(ascii: ":"))
                appendShape(of: child, to: &shape)
                shape.append(UInt8(ascii: ","))
            }
            shape.append(UInt8(ascii: "}"))
        case let .array(elements):
            shape.append(UInt8(ascii: "["))
            for element in elements {
                appendShape(of: element, to: &shape)
                shape.append(UInt8(ascii: ","))
            }
            shape.append(UInt8(ascii: "]"))
        case .null, .bool, .int, .double, .string:
            shape.append(UInt8(ascii: "_"))
        }
    }
}
