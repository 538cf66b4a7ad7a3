import Foundation

/// Conversions from tree values to the primitives, worded like `JSONDecoder` when they fail.
extension TreeDecoder {
    func unbox(_ value: JSONValue, as type: Bool.Type, at key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type, value, at: key) }
        return bool
    }

    func unbox(_ value: JSONValue, as type: String.Type, at key: (any CodingKey)?) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, value, at: key) }
        return string
    }

    func unbox(_ value: JSONValue, as type: Double.Type, at key: (any CodingKey)?) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(type, value, at: key)
        }
    }

    func unbox(_ value: JSONValue, as type: Float.Type, at key: (any CodingKey)?) throws -> Float {
        let double = try unbox(value, as: Double.self, at: key)
        let float = Float(double)
        guard float.isFinite else {
            throw corrupted(at: key, "Parsed JSON number <\(double)> does not fit in Float.")
        }
        return float
    }

    /// An integer of any width, from an `.int` in range or a `.double` with an exact integral value.
    func unbox<T: FixedWidthInteger & Decodable>(_ value: JSONValue, as type: T.Type, at key: (any CodingKey)?) throws -> T {
        let result: T?
        switch value {
        case .int(let int): result = T(exactly: int)
        case .double(let double): result = T(exactly: double)
        default: throw mismatch(type, value, at: key)
        }
        guard let result else {
            throw corrupted(at: key, "Parsed JSON number <\(value)> does not fit in \(T.self).")
        }
        return result
    }

    func unboxDecimal(_ value: JSONValue, at key: (any CodingKey)?) throws -> Decimal {
        switch value {
        case .int(let int):
            return Decimal(int)
        case .double(let double):
            // The shortest text of the double is what JSONDecoder would have read.
            guard let decimal = Decimal(string: double.description) else {
                throw corrupted(at: key, "Parsed JSON number <\(double)> does not fit in Decimal.")
            }
            return decimal
        default:
            throw mismatch(Decimal.self, value, at: key)
        }
    }

    /// The error for finding `value` where a `type` was expected: `valueNotFound` for `null`,
    /// `typeMismatch` otherwise, worded like JSONDecoder's.
    func mismatch(_ type: Any.Type, _ value: JSONValue, at key: (any CodingKey)?, container: String? = nil) -> DecodingError {
        let context = { (description: String) in
            DecodingError.Context(codingPath: self.codingPath(appending: key), debugDescription: description)
        }
        if case .null = value {
            let what = container ?? "value of type \(type)"
            return .valueNotFound(type, context("Cannot get \(what) -- found null value instead"))
        }
        return .typeMismatch(type, context("Expected to decode \(type) but found \(Self.kind(of: value)) instead."))
    }

    func corrupted(at key: (any CodingKey)?, _ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath(appending: key), debugDescription: description))
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a bool"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
