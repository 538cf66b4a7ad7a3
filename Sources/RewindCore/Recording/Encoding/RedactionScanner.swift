import RewindJSON

/// Finds the redacted secrets in an encoded value, for the log's list of redacted fields.
enum RedactionScanner {
    /// Adds the path of every `{"$redacted": N}` placeholder in `value` to `paths`, with array
    /// indices written `[*]` so one field of many elements is one path.
    static func collect(in value: JSONValue, at path: String, into paths: inout Set<String>) {
        // Most values hold no secret: finding that out builds no path strings.
        guard containsPlaceholder(value) else { return }
        collectPaths(in: value, at: path, into: &paths)
    }

    private static func containsPlaceholder(_ value: JSONValue) -> Bool {
        switch value {
        case let .object(object):
            if object.count == 1, object[Secret.placeholderKey] != nil { return true }
            return object.values.contains(where: containsPlaceholder)
        case let .array(elements):
            return elements.contains(where: containsPlaceholder)
        case .null, .bool, .int, .double, .string:
            return false
        }
    }

    private static func collectPaths(in value: JSONValue, at path: String, into paths: inout Set<String>) {
        switch value {
        case let .object(object):
            if object.count == 1, object[Secret.placeholderKey] != nil {
                paths.insert(path)
                return
            }
            for (key, child) in object {
                collectPaths(in: child, at: path.isEmpty ? key : "\(path).\(key)", into: &paths)
            }
        case let .array(elements):
            for element in elements { collectPaths(in: element, at: path + "[*]", into: &paths) }
        default:
            break
        }
    }

    /// A path with its indices written `[*]`.
    static func pattern(of path: JSONPath) -> String {
        var text = ""
        for component in path.components {
            switch component {
            case let .key(key): text += text.isEmpty ? key : ".\(key)"
            case .index, .id, .wildcard: text += "[*]"
            }
        }
        return text
    }
}
