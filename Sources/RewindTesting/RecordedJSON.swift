import Foundation
import RewindJSON

/// A value read from the JSON a recording holds for it: what a test written by `rewind
/// write-test` uses where the exact Swift spelling of a value cannot be known (a type with its
/// own coding keys, a set, a class), rather than a spelling that might be wrong.
///
/// ```swift
/// $0.profile = try decodedFromRecordedJSON(#"{"joined":1.8e9,"tags":["a"]}"#)
/// ```
///
/// - Throws: a `DecodingError` or `JSONParseError` when the text is not a `T` as the recorder
///   encodes one.
public func decodedFromRecordedJSON<T: Decodable>(_ json: String, as type: T.Type = T.self) throws -> T {
    try JSONValueDecoder().decode(T.self, from: try JSONValue(parsing: json))
}
