import RewindJSON

extension JSONChange {
    /// The change as people read it: one inside a redacted placeholder,
    /// `password["$redacted"]: 3 → 4`, reads as a change of the secret itself,
    /// `password: <redacted 3> → <redacted 4>`.
    public var collapsingRedaction: (path: JSONPath, kind: Kind) {
        guard case .key(RedactedPlaceholder.key)? = path.components.last else {
            return (path, kind)
        }
        let parent = JSONPath(Array(path.components.dropLast()))
        func wrap(_ value: JSONValue) -> JSONValue { .object(JSONObject([(RedactedPlaceholder.key, value)])) }
        switch kind {
        case let .added(value): return (parent, .added(wrap(value)))
        case let .removed(value): return (parent, .removed(wrap(value)))
        case let .changed(old, new): return (parent, .changed(from: wrap(old), to: wrap(new)))
        case .moved: return (path, kind)
        }
    }

    /// The `--json` form of a change: `path`, `change` (`added`, `removed`, `changed`, `moved`)
    /// and `old` and/or `new`, or for a move the indices `from` and `to`.
    public var jsonForm: JSONValue {
        var object = JSONObject([("path", .string(path.description))])
        switch kind {
        case let .added(value):
            object["change"] = "added"
            object["new"] = value
        case let .removed(value):
            object["change"] = "removed"
            object["old"] = value
        case let .changed(old, new):
            object["change"] = "changed"
            object["old"] = old
            object["new"] = new
        case let .moved(from, to):
            object["change"] = "moved"
            object["from"] = .int(from)
            object["to"] = .int(to)
        }
        return .object(object)
    }
}
