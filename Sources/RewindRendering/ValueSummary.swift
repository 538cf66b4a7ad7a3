import RewindJSON

/// Short, one-line renderings of JSON values and action payloads for timelines.
public enum ValueSummary {
    /// How long a scalar's text may be and still print whole in the shortest summaries: an id
    /// is read to be compared, so a UUID in quotes (38 characters) is never cut.
    public static let wholeScalarLimit = 40

    /// A value in at most about `limit` characters: scalars as JSON, a redacted secret as
    /// `<redacted N>`, containers by their size when they do not fit.
    ///
    /// A scalar is kept whole up to `wholeScalarLimit` characters even when `limit` is
    /// smaller, and a longer string is cut there: a summary cuts containers and free text,
    /// never an id or a number.
    ///
    /// A character here is a Unicode scalar (a code point), which the HTML report counts the
    /// same way: Swift's `Character` and JavaScript's UTF-16 units cut `é` written as `e` and
    /// U+0301, or an emoji, at different places.
    public static func describe(_ value: JSONValue, limit: Int = 40) -> String {
        if let length = redactedLength(value) { return "<redacted \(length)>" }
        let text: String
        switch value {
        case .array(let elements) where elements.isEmpty: text = "[]"
        case .object(let object) where object.isEmpty: text = "{}"
        default: text = compact(value)
        }
        let length = text.unicodeScalars.count
        switch value {
        case .array(let elements):
            if length <= limit { return text }
            return elements.count == 1 ? "[1 item]" : "[\(elements.count) items]"
        case .object(let object):
            if length <= limit { return text }
            return object.count == 1 ? "{1 field}" : "{\(object.count) fields}"
        case .null, .bool, .int, .double, .string:
            let scalarLimit = max(limit, wholeScalarLimit)
            return length <= scalarLimit ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(scalarLimit - 1))) + "…"
        }
    }

    /// An action in short, by its case and payload: `retry`, `loadThumbnail(7)`,
    /// `thumbnail(retry)`, for an action whose case name is not known apart (an effect's).
    public static func action(_ action: JSONValue) -> String {
        switch action {
        case let .string(name):
            return name
        case let .object(object) where object.count == 1:
            guard let name = object.keys.first else { return describe(action) }
            let payload = payload(of: action, name: name)
            return payload.isEmpty ? name : "\(name)(\(payload))"
        default:
            return describe(action)
        }
    }

    /// The action's payload in short, like `"alice"` or `success(…)`, or empty when it has none.
    ///
    /// Synthesized `Codable` writes a case as `{"name": {"_0": payload}}`; parents wrap their
    /// child's action the same way. This walks down to the case called `name` and renders what
    /// it carries.
    public static func payload(of action: JSONValue, name: String, limit: Int = 48) -> String {
        var current = action
        while case .object(let object) = current, object.count == 1, let (key, value) = object.first(where: { _ in true }) {
            if key == name {
                return describePayload(value, limit: limit)
            }
            guard let child = wrappedAction(in: value) else { return "" }
            current = child
        }
        return ""
    }

    /// The child action a parent's case carries: `_0`, or the last field that is itself a
    /// case (as in `thumbnail(id: 7, _1: action)`).
    private static func wrappedAction(in payload: JSONValue) -> JSONValue? {
        guard case .object(let fields) = payload else { return nil }
        if let only = fields["_0"], fields.count == 1 { return only }
        return fields.reversed().first { _, value in
            if case .object(let inner) = value, inner.count == 1 { true } else { false }
        }?.1
    }

    private static func describePayload(_ payload: JSONValue, limit: Int) -> String {
        guard case .object(let fields) = payload, !fields.isEmpty else { return "" }
        if fields.count == 1, let only = fields["_0"] {
            return enumCase(only) ?? describe(only, limit: limit)
        }
        // Whole fields are dropped from the end rather than one cut through an id; the first
        // always shows.
        var text = ""
        for (index, (key, value)) in fields.enumerated() {
            let part = (index == 0 ? "" : ", ") + "\(key): \(enumCase(value) ?? describe(value, limit: 16))"
            if index > 0, text.count + part.count > limit {
                return text + ", …"
            }
            text += part
        }
        return text
    }

    /// `success(…)` for an enum case with a payload, `didTap` for a child action.
    private static func enumCase(_ value: JSONValue) -> String? {
        guard redactedLength(value) == nil,
            case .object(let object) = value, object.count == 1,
            let (key, inner) = object.first(where: { _ in true }),
            case .object(let payload) = inner
        else { return nil }
        return payload.isEmpty ? key : "\(key)(…)"
    }

    /// The length a redacted placeholder (`{"$redacted": N}`) keeps; nil for any other value.
    public static func redactedLength(_ value: JSONValue) -> Int? {
        guard case .object(let object) = value, object.count == 1,
            case .int(let length)? = object[RedactedPlaceholder.key]
        else { return nil }
        return length
    }

    /// Compact JSON, keys sorted, except that a redacted secret anywhere inside reads
    /// `<redacted N>` as it does on its own.
    private static func compact(_ value: JSONValue) -> String {
        if let length = redactedLength(value) { return "<redacted \(length)>" }
        switch value {
        case .array(let elements):
            return "[" + elements.map(compact).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.map { key, child in JSONValue.string(key).canonicalString + ":" + compact(child) }.joined(separator: ",") + "}"
        default:
            return value.canonicalString
        }
    }
}
