import RewindJSON

/// Recorded values as the page's data holds them: exact where a JavaScript number is not.
///
/// The page parses its data with `JSON.parse`, whose numbers are doubles: 9007199254740993
/// would read as …992 and `-0.0` as 0, so a change between them would show as "(no change)",
/// and 0.0 would print as 0. An integer past 2^53, and every double, goes into the data as
/// `{"$exact": "9007199254740993"}`, its canonical text, which the page keeps, compares and
/// shows as text. An app's own object whose only key is `$exact`
/// followed by any number of NULs gets one NUL more, so that every value reads back as it was.
enum ReportValues {
    /// `value` with every number a double cannot hold exactly tagged, and every object that
    /// looks like a tag escaped; `value` itself, uncopied, when it has neither (nearly always).
    static func forPage(_ value: JSONValue) -> JSONValue {
        rewritten(value) ?? value
    }

    /// What ``forPage(_:)`` makes of `value`, or nil when that is `value`.
    private static func rewritten(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null, .bool, .string:
            return nil
        // (Not `cond ? tagged(value) : nil`: JSONValue takes `nil` as its own `.null`, and the
        // ternary made every other number null.)
        case let .int(number):
            guard number.magnitude > 1 << 53 else { return nil }
            return tagged(value)
        case .double:
            // Every double: JavaScript writes 0.0 as 0, 1e16 as 10000000000000000 and -0.0 as
            // 0, where the log writes 0.0, 1e+16 and -0.0.
            return tagged(value)
        case let .array(elements):
            return rewritten(elements).map(JSONValue.array)
        case let .object(object):
            if object.keys.count == 1, isTagLike(object.keys[0]) {
                return .object(JSONObject([(object.keys[0] + "\u{0}", forPage(object.values[0]))]))
            }
            return rewritten(object.values).map { .object(JSONObject(Array(zip(object.keys, $0)))) }
        }
    }

    /// `values` with each rewritten, copied from the first that is; nil when none is.
    private static func rewritten(_ values: [JSONValue]) -> [JSONValue]? {
        var copy: [JSONValue]?
        for index in values.indices {
            if let changed = rewritten(values[index]) {
                if copy == nil { copy = values }
                copy?[index] = changed
            }
        }
        return copy
    }

    private static func tagged(_ number: JSONValue) -> JSONValue {
        .object(JSONObject([("$exact", .string(number.canonicalString))]))
    }

    /// `$exact` followed by nothing but NULs.
    private static func isTagLike(_ key: String) -> Bool {
        key.hasPrefix("$exact") && key.utf8.dropFirst(6).allSatisfy { $0 == 0 }
    }
}
