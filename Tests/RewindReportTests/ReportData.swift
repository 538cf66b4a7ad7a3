import Foundation
import RewindJSON
import Testing

/// The data block of a report page, read back as the page's script reads it.
enum ReportData {
    static let opening = #"<script type="application/json" id="rewind-data">"#

    /// The page's data, parsed; fails the test when the page has no data block.
    static func json(in page: [UInt8]) throws -> JSONValue {
        let text = String(decoding: page, as: UTF8.self)
        let start = try #require(text.range(of: opening))
        let end = try #require(text.range(of: "</script>", range: start.upperBound..<text.endIndex))
        return try JSONValue(parsing: String(text[start.upperBound..<end.lowerBound]))
    }

    static func sessions(in page: [UInt8]) throws -> [JSONValue] {
        guard case .array(let sessions)? = try json(in: page)[JSONPath("sessions")] else {
            Issue.record("the data has no sessions")
            return []
        }
        return sessions
    }
}
