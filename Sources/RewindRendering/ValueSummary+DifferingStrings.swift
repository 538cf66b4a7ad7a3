import Foundation
import RewindJSON

extension ValueSummary {
    /// Two strings whose summaries (``describe(_:limit:)``) would read the same, cut where they
    /// start to differ, as the HTML report cuts them: `"…xxxxxxxx" → "…xxxxxxxx!" (from
    /// character 2,001)`, each side at most about `limit` characters with 8 of the shared head
    /// before the difference. Nil for any other pair: summaries that differ already show it.
    ///
    /// Summaries cut at the head showed a 1 MB string and the same string plus one character
    /// as two identical 120-character heads.
    public static func differingStrings(_ old: JSONValue, _ new: JSONValue, limit: Int) -> String? {
        // Compared byte for byte, as the page compares: Swift's `==` on strings calls `é` and
        // `e` + U+0301 equal.
        guard case .string(let oldText) = old, case .string(let newText) = new, old != new,
            describe(old, limit: limit).utf8.elementsEqual(describe(new, limit: limit).utf8)
        else {
            return nil
        }
        // By Unicode scalar, as describe(_:limit:) and the page count.
        let left = Array(oldText.unicodeScalars)
        let right = Array(newText.unicodeScalars)
        var first = 0
        while first < left.count, first < right.count, left[first] == right[first] { first += 1 }
        let context = 8
        let from = first + context <= limit - 4 ? 0 : first - context
        func cut(_ scalars: [Unicode.Scalar]) -> String {
            let end = min(scalars.count, from + limit - 4)
            let part = from < end ? String(String.UnicodeScalarView(scalars[from..<end])) : ""
            let quoted = JSONValue.string(part).canonicalString
            return (from > 0 ? "…" : "") + quoted.dropFirst().dropLast() + (end < scalars.count ? "…" : "")
        }
        let location = from == 0 ? "" : " (from character \((first + 1).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))))"
        return "\"\(cut(left))\" → \"\(cut(right))\"" + location
    }
}
