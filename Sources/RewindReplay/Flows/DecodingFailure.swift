import RewindJSON

/// Turns a `DecodingError` on a recorded value into one line that names the type, the enum
/// case or field, and where: what a user needs when an old recording no longer decodes.
@usableFromInline
package enum DecodingFailure {
    @usableFromInline
    package static func describe(_ error: DecodingError, type: Any.Type, in value: JSONValue) -> String {
        switch error {
        case let .typeMismatch(expected, context):
            let location = JSONPath(context.codingPath.map(component))
            // Synthesized Codable reports a case it does not know as a type mismatch on the enum.
            if case let .object(object)? = value[location], object.count == 1, let name = object.keys.first,
                context.debugDescription.contains("number of keys")
            {
                return "\(typeName(expected)) has no case '\(name)'\(at(location)) (removed or renamed?)"
            }
            return "cannot decode \(typeName(type)): expected \(typeName(expected))\(at(location)): \(context.debugDescription)"
        case let .keyNotFound(key, context):
            let location = JSONPath(context.codingPath.map(component))
            return "cannot decode \(typeName(type)): missing field '\(key.stringValue)'\(at(location))"
        case let .valueNotFound(expected, context):
            return "cannot decode \(typeName(type)): no \(typeName(expected)) value\(at(JSONPath(context.codingPath.map(component))))"
        case let .dataCorrupted(context):
            return "cannot decode \(typeName(type))\(at(JSONPath(context.codingPath.map(component)))): \(context.debugDescription)"
        @unknown default:
            return "cannot decode \(typeName(type)): \(error)"
        }
    }

    /// `LoginAction`, `CounterV2.Action`: the type's name without its module.
    package static func typeName(_ type: Any.Type) -> String {
        let name = String(reflecting: type)
        guard let dot = name.firstIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    private static func component(_ key: any CodingKey) -> JSONPath.Component {
        key.intValue.map(JSONPath.Component.index) ?? .key(key.stringValue)
    }

    private static func at(_ path: JSONPath) -> String {
        path.components.isEmpty ? "" : " at \(path)"
    }
}
