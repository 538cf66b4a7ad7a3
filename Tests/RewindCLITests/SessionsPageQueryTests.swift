#if Servers
import Foundation
import RewindLog
import Testing

@testable import RewindCollector

/// The sessions page's query: read from a request's items, read as `rewind sessions` reads its
/// options, and written back into the links of the page, every value whole.
@Suite struct SessionsPageQueryTests {
    @Test func aQueryGoesIntoTheLinksAndComesBackTheSame() throws {
        let items: [(name: String, value: String)] = [
            ("flow", "check out"), ("version", "2.3+beta"), ("tag", "ticket=A&B=1"), ("tag", "user=42"), ("reported", "1"),
            ("since", "2d"), ("unknown", "ignored"),
        ]
        let query = try SessionsPage.Query(items: items)
        let cursor = SessionPage.Cursor(startedAt: 1_800_000_000.25, id: UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")!)
        let link = query.link(after: cursor)
        #expect(
            link
                == "/?flow=check%20out&version=2.3%2Bbeta&since=2d&tag=ticket%3DA%26B%3D1&tag=user%3D42&reported=1&after=1800000000.25_1B4E28BA-2FA1-11D2-883F-0016D3CCA427"
        )
        let again = try SessionsPage.Query(items: Collector.formItems(String(link.dropFirst(2))))
        #expect(again.after == cursor.description)
        var expected = query
        expected.after = cursor.description
        #expect(again == expected)
        let filter = try again.filter(now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(filter.tags == ["ticket": "A&B=1", "user": "42"] && filter.reportedOnly && filter.appVersion == "2.3+beta")
        #expect(filter.since == Date(timeIntervalSince1970: 1_800_000_000 - 2 * 86_400))
        #expect(try again.cursor() == cursor)
        #expect(SessionsPage.Query().link(after: nil) == "/")
        #expect(throws: SessionFilter.Invalid.self) { try SessionsPage.Query(items: Array(repeating: ("tag", "a=b"), count: 9)) }
    }

    @Test func aRecordedStringIsTextInAnElementAndAnAttribute() {
        #expect(SessionsPage.text("<a href='x'>\"&\u{202E}") == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;\\u202e")
        let long = String(repeating: "é", count: 200)
        #expect(SessionsPage.text(long) == String(repeating: "é", count: 120) + "…")
        #expect(SessionsPage.text(long, cut: false) == long)
    }
}
#endif
