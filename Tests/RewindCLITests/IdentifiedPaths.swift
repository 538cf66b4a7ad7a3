import Foundation
import RewindJSON

/// Names the elements of identified arrays by id in `rewind diff`'s lines (`photos[0]` →
/// `photos[id=1]`), as the report does (issue 15).
///
/// Until JSONDiff itself names such elements by id, this lets the report's diffs be compared
/// with the command line's; once it does, the lines already read so and come back unchanged.
/// It reads the simple paths of the demo (keys that are identifiers, indices, ids).
enum IdentifiedPaths {
    /// `lines` with each index into an identified array of the state before (for a `-`
    /// line) or after (for the others) written as the element's id.
    static func rewrite(_ lines: [String], before: JSONValue, after: JSONValue) -> [String] {
        lines.map { line in
            guard line.count > 2, let end = line.range(of: ": ") else { return line }
            let sign = line.prefix(2)
            let path = String(line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound])
            return sign + rewrite(path, in: sign == "- " ? before : after) + line[end.lowerBound...]
        }
    }

    private static func rewrite(_ path: String, in state: JSONValue) -> String {
        var rest = Substring(path)
        var value: JSONValue? = state
        var result = ""
        while let match = rest.prefixMatch(of: #/\.?[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\]|\[id=[^\]]+\]/#) {
            let text = String(match.output)
            rest = rest.dropFirst(text.count)
            if text.hasPrefix("[id=") {
                let id = try? JSONValue(parsing: String(text.dropFirst(4).dropLast()))
                value = elements(of: value)?.first { identity(of: $0) == id }
                result += text
            } else if text.hasPrefix("["), let position = Int(text.dropFirst().dropLast()), let array = elements(of: value) {
                let element: JSONValue? = position < array.count ? array[position] : nil
                let ids = array.map { identity(of: $0) }
                let identified = ids.allSatisfy { $0 != nil } && Set(ids).count == ids.count
                if identified, let id = element.flatMap({ identity(of: $0) }) {
                    result += "[id=" + id.canonicalString + "]"
                } else {
                    result += text
                }
                value = element
            } else {
                if case let .object(object)? = value { value = object[text.hasPrefix(".") ? String(text.dropFirst()) : text] } else { value = nil }
                result += text
            }
        }
        return result + rest
    }

    private static func elements(of value: JSONValue?) -> [JSONValue]? {
        if case let .array(elements)? = value { elements } else { nil }
    }

    /// An element's scalar `id`, nil when it has none.
    private static func identity(of element: JSONValue) -> JSONValue? {
        guard case let .object(object) = element, let id = object["id"] else { return nil }
        switch id {
        case .array, .object: return nil
        default: return id
        }
    }
}
