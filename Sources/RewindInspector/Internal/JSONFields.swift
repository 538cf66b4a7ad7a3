import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// Typed access to the members of one JSON object, failing with a one-line reason that names
/// the field: `field "step" is missing`, `field "cause" must be an integer or null`.
struct JSONFields {
    /// Why a field is missing or of the wrong type.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private let object: JSONObject

    /// Reads `value`, which must be an object whose keys are all in `known`.
    init(_ value: JSONValue, known: Set<String>) throws(Invalid) {
        guard case .object(let object) = value else {
            throw Invalid(description: "expected a JSON object, found \(Self.kind(of: value))")
        }
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw Invalid(description: "unknown field \(JSONValue.string(unknown))")
        }
        self.object = object
    }

    /// The member `key`, which must be present (it may be `null`).
    func value(_ key: String) throws(Invalid) -> JSONValue {
        guard let value = object[key] else { throw Invalid(description: "field \"\(key)\" is missing") }
        return value
    }

    /// Whether the object has `key`, for a field that older writers left out.
    func has(_ key: String) -> Bool {
        object[key] != nil
    }

    /// A step's effects (``RecordedEffects/json``), `null` for none; nil where the line has no
    /// such field, as lines of a session of format 3 or 4 have not.
    func effects(_ key: String) throws(Invalid) -> RecordedEffects? {
        guard has(key) else { return nil }
        do {
            return try RecordedEffects(json: try value(key))
        } catch {
            throw wrongType(key, "null or an object of runs (names or nulls) and sends (actions)")
        }
    }

    func optionalUUID(_ key: String) throws(Invalid) -> UUID? {
        guard let text = try optionalString(key) else { return nil }
        guard let uuid = UUID(uuidString: text) else { throw wrongType(key, "a UUID or null") }
        return uuid
    }

    func string(_ key: String) throws(Invalid) -> String {
        guard case .string(let text) = try value(key) else { throw wrongType(key, "a string") }
        return text
    }

    func optionalString(_ key: String) throws(Invalid) -> String? {
        switch try value(key) {
        case .null: return nil
        case .string(let text): return text
        default: throw wrongType(key, "a string or null")
        }
    }

    func int(_ key: String, atLeast minimum: Int = .min, atMost maximum: Int = .max) throws(Invalid) -> Int {
        guard case .int(let number) = try value(key), number >= minimum, number <= maximum else {
            throw wrongType(
                key,
                maximum != .max
                    ? "an integer from \(minimum) through \(maximum)" : minimum == .min ? "an integer" : "an integer of at least \(minimum)")
        }
        return number
    }

    func optionalInt(_ key: String) throws(Invalid) -> Int? {
        switch try value(key) {
        case .null: return nil
        case .int(let number): return number
        default: throw wrongType(key, "an integer or null")
        }
    }

    /// Seconds since 1970, written as a number.
    func date(_ key: String) throws(Invalid) -> Date {
        guard let date = Self.date(try value(key)) else { throw wrongType(key, "a number of seconds within 10¹² of 1970") }
        return date
    }

    func optionalDate(_ key: String) throws(Invalid) -> Date? {
        let value = try value(key)
        if case .null = value { return nil }
        guard let date = Self.date(value) else { throw wrongType(key, "a number of seconds within 10¹² of 1970, or null") }
        return date
    }

    /// A time in the range a log's readers accept (within 10¹² seconds of 1970): a time of 10¹³
    /// was stored saturated, one of 10³⁰⁰ made `check` call the imported log damaged.
    private static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .double(let seconds) where LogBounds.isTime(seconds): Date(timeIntervalSince1970: seconds)
        case .int(let seconds) where LogBounds.isTime(Double(seconds)): Date(timeIntervalSince1970: Double(seconds))
        default: nil
        }
    }

    func array(_ key: String) throws(Invalid) -> [JSONValue] {
        guard case .array(let elements) = try value(key) else { throw wrongType(key, "an array") }
        return elements
    }

    func strings(_ key: String) throws(Invalid) -> [String] {
        var strings: [String] = []
        for element in try array(key) {
            guard case .string(let text) = element else { throw wrongType(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// A digest written as 16 lowercase hexadecimal digits.
    func digest(_ key: String) throws(Invalid) -> StateDigest {
        let text = try string(key)
        let hexDigits = Set("0123456789abcdef")
        guard text.count == 16, text.allSatisfy(hexDigits.contains), let raw = UInt64(text, radix: 16) else {
            throw wrongType(key, "16 lowercase hexadecimal digits")
        }
        return StateDigest(rawValue: raw)
    }

    private func wrongType(_ key: String, _ expected: String) -> Invalid {
        Invalid(description: "field \"\(key)\" must be \(expected)")
    }

    /// The kind of a value in a few words, for messages.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
