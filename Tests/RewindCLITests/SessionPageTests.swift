import Foundation
import RewindCore
import RewindLog
import RewindTestSupport
import Testing

#if Servers
import RewindTeamStore
#endif

/// A store's sessions a page at a time, newest first (the collector's sessions page), and a
/// replay's verdict kept in a session's tags: a log and a team store alike.
@Suite struct SessionPageTests {
    enum Tap: String, Codable, Equatable, Sendable, DescribedAction {
        case tap
    }

    /// 23 sessions at 7 instants, 3 or 4 a instant (ties ordered by identity), every third one
    /// reported, versions 1 and 2 in turn; and their identities newest first.
    static func log(in folder: TemporaryDirectory) throws -> (path: String, newestFirst: [SessionSummary]) {
        let path = folder.path("paged.rewind")
        let start = Date(timeIntervalSince1970: 1_800_000_000.25)
        for index in 0..<23 {
            let at = start.addingTimeInterval(Double(index % 7) * 60)
            var tags: [String: String] = [:]
            if index % 3 == 0 { tags = SessionReport(reason: "crash \(index)", step: 1).tags }
            let recorder = Recorder<Int, Tap>(
                sink: try SQLiteSink(path: path),
                session: SessionDescriptor(
                    name: "s\(index)", flow: "tap", now: { at }, id: UUID(),
                    metadata: SessionMetadata(app: "Shop", appVersion: "\(index % 2 + 1)", origin: .device, tags: tags)))
            recorder.start(initialState: 0)
            recorder.record(.tap, state: 1, step: 1)
            recorder.close()
        }
        let all = try LogReader(path: path).sessions()
        let newestFirst = all.sorted { a, b in
            a.startedAt != b.startedAt ? a.startedAt > b.startedAt : a.id!.uuidString > b.id!.uuidString
        }
        return (path, newestFirst)
    }

    /// Every page of `store` under `filter`, `size` at a time, followed to the end.
    static func walk(_ store: any SessionStore, _ filter: SessionFilter = SessionFilter(), size: Int) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: SessionPage.Cursor?
        repeat {
            let page = try await store.sessions(matching: filter, after: cursor, limit: size)
            pages.append(page.sessions.map { $0.name ?? "" })
            cursor = page.next
            // A cursor goes through a link's text and comes back the same.
            if let next = cursor { #expect(SessionPage.Cursor(next.description) == next) }
        } while cursor != nil && pages.count < 50
        return pages
    }

    static func expectPaging(_ store: any SessionStore, _ newestFirst: [SessionSummary]) async throws {
        let names = newestFirst.map { $0.name ?? "" }
        let pages = try await walk(store, size: 5)
        #expect(pages.map(\.count) == [5, 5, 5, 5, 3])
        #expect(pages.flatMap { $0 } == names)
        // A last page that is full says no page follows.
        #expect(try await walk(store, size: 23).map(\.count) == [23])
        #expect(try await walk(store, size: 22).map(\.count) == [22, 1])

        let reported = newestFirst.filter { $0.report != nil && $0.metadata?.appVersion == "1" }.map { $0.name ?? "" }
        let filter = SessionFilter(appVersion: "1", reportedOnly: true)
        #expect(reported.count == 4)
        #expect(try await walk(store, filter, size: 2).flatMap { $0 } == reported)
        let sinceFilter = SessionFilter(since: newestFirst[0].startedAt)
        #expect(try await walk(store, sinceFilter, size: 10).flatMap { $0 } == Array(names.prefix(3)))
    }

    @Test func aLogPagesNewestFirstEachPageAfterTheLast() async throws {
        let folder = try TemporaryDirectory()
        let (path, newestFirst) = try Self.log(in: folder)
        try await Self.expectPaging(LogFileStore(path: path), newestFirst)
        #expect(SessionPage.Cursor("1800000000.25_not-a-uuid") == nil)
        #expect(SessionPage.Cursor(String(repeating: "1", count: 81)) == nil)
    }

    @Test func sessionsReportedListsTheReportedOnes() throws {
        let folder = try TemporaryDirectory()
        let (path, newestFirst) = try Self.log(in: folder)
        let result = try RewindBinary.run(["sessions", path, "--reported", "--app-version", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let listed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        let expected = newestFirst.filter { $0.report != nil && $0.metadata?.appVersion == "1" }.sorted { $0.number < $1.number }
        #expect(listed.compactMap { $0["name"] as? String } == expected.map { $0.name ?? "" })
    }

    @Test func aVerdictReplacesTheLastInTheSessionsTags() async throws {
        let folder = try TemporaryDirectory()
        let (path, newestFirst) = try Self.log(in: folder)
        let store = LogFileStore(path: path)
        let id = try #require(newestFirst[4].id)
        let at = Date(timeIntervalSince1970: 1_800_000_100.9)
        #expect(try await store.record(ReplayVerdict(outcome: .diverged, step: 7, build: "abc123", at: at), for: id))
        #expect(try await store.record(ReplayVerdict(outcome: .passed, step: 7, build: "def456", at: at), for: id))
        #expect(try await store.record(ReplayVerdict(outcome: .passed, step: 0, build: "x", at: at), for: UUID()) == false)
        let session = try #require(try await store.session(id)?.summary)
        let verdict = try #require(session.metadata.flatMap { ReplayVerdict(tags: $0.tags) })
        #expect(verdict == ReplayVerdict(outcome: .passed, step: 0, build: "def456", at: Date(timeIntervalSince1970: 1_800_000_100)))
        #expect(verdict.text == "passed")
        // The report the session had stays; the row still matches its checksum.
        #expect(session.report == newestFirst[4].report)
        #expect(try LogReader(path: path).sessions().count == 23)
        #expect(ReplayVerdict(outcome: .nondeterministic, step: 12, build: "b", at: at).text == "nondeterministic at step 12")
        #expect(ReplayVerdict.isValidBuild("v2.3.1 (ci 77)") && !ReplayVerdict.isValidBuild("") && !ReplayVerdict.isValidBuild("a\u{1B}b"))
        #expect(!ReplayVerdict.isValidBuild(String(repeating: "a", count: 129)) && !ReplayVerdict.isValidBuild(" a"))
    }

    #if Servers
    @Test(.serversBuild, .postgres) func aTeamStorePagesAsTheLogDoes() async throws {
        let folder = try TemporaryDirectory()
        let (path, newestFirst) = try Self.log(in: folder)
        let fresh = try FreshStore()
        let pushed = try await TeamStoreBuild.run(["push", path, "--to", fresh.url])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        // The wait for a connection only stops a hung test: in a full suite on two cores, one
        // store's first connection took longer than the default, 10 s.
        try await TeamStore.withStore(try TeamStoreLocation(fresh.url), connectionWait: .seconds(600)) { store in
            try await Self.expectPaging(store, newestFirst)
            let id = try #require(newestFirst[0].id)
            let at = Date(timeIntervalSince1970: 1_800_000_100)
            #expect(try await store.record(ReplayVerdict(outcome: .diverged, step: 1, build: "abc123", at: at), for: id))
            #expect(try await store.record(ReplayVerdict(outcome: .passed, step: 0, build: "x", at: at), for: UUID()) == false)
            let tags = try #require(try await store.session(id)?.summary.metadata?.tags)
            #expect(ReplayVerdict(tags: tags) == ReplayVerdict(outcome: .diverged, step: 1, build: "abc123", at: at))
            #expect(tags[SessionReport.tag] == newestFirst[0].report?.reason)
        }
    }
    #endif
}
