import RewindCore
import RewindJSON
import RewindLog
import Testing

@testable import RewindInspector

@MainActor
@Suite struct FindTests {
    let folder: TemporaryDirectory
    let inspector: LogInspector

    init() async throws {
        folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        inspector = try LogInspector(path: path)
    }

    func find(_ predicate: String, in session: String? = nil, limit: Int = .max) throws -> [StateMatch] {
        let sessions = try session.map { [try inspector.session($0)] } ?? inspector.sessions()
        return try inspector.matches(StatePredicate(parsing: predicate), in: sessions, limit: limit)
    }

    @Test func failedLoginsAndListsAcrossEverySession() throws {
        let matches = try find(#"status == "failed""#)
        #expect(
            matches.map(MatchRenderer().text) == [
                "#3 login-network-error-retry  step 19  loginResponse",
                "#5 photos-list-error-retry  step 2  photosResponse",
            ])
        #expect(
            matches.map(MatchRenderer().json) == [
                #"{"action":"loginResponse","name":"login-network-error-retry","session":3,"step":19}"#,
                #"{"action":"photosResponse","name":"photos-list-error-retry","session":5,"step":2}"#,
            ])
    }

    @Test func anAlertOverAFullList() throws {
        let matches = try find("photos.count > 10 and alert != null")
        #expect(matches.map(MatchRenderer().text) == ["#6 photos-thumbnail-error-retry  step 16  output"])
        #expect(matches.first?.origin == "photos/thumbnail[4]")
    }

    @Test func theInitialStateIsStepZero() throws {
        let matches = try find(#"route == "login""#, in: "app-full", limit: 1)
        #expect(matches.map(MatchRenderer().text) == ["#7 app-full  step 0  (initial)"])
        #expect(matches.map(MatchRenderer().json) == [#"{"name":"app-full","session":7,"step":0}"#])
    }

    @Test func aSessionNarrowsTheSearch() throws {
        #expect(try find(#"status == "failed""#, in: "login-network-error-retry").map(\.step) == [19])
        #expect(try find(#"status == "failed""#, in: "login-happy").isEmpty)
    }

    @Test func everyMatchingStepIsReportedAndALimitStopsEarly() throws {
        let all = try find(#"route == "photos""#, in: "app-full")
        #expect(all.map(\.step) == Array(18...43))
        #expect(try find(#"route == "photos""#, limit: 3).map(\.step) == [18, 19, 20])
        #expect(try find(#"route == "photos""#, limit: 0).isEmpty)
    }

    @Test func nothingMatchesANameNoStateHas() throws {
        #expect(try find("no.such.thing").isEmpty)
    }
}

/// A search reads a session in runs of `LogInspector.findChunk` steps, each going on from the
/// state the last one ended with, so a gap across the boundary of two runs is passed over as
/// a walk passes over any gap.
@Suite struct FindAcrossRunsTests {
    @Test func aGapAcrossTheBoundaryOfTwoRunsIsPassedOver() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("long.rewind")
        let log = try HandmadeLog(path: path)
        let boundary = LogInspector.findChunk
        let gap = (boundary - 5)...(boundary + 5)
        let steps = (1...(boundary * 2 + 10)).filter { !gap.contains($0) }.map { step in
            HandmadeLog.Step(step: step, state: HandmadeLog.login("u\(step)", password: 0), action: HandmadeLog.typed("u\(step)"))
        }
        try log.session("long", steps: steps, gaps: [RecordingGap(steps: gap, reason: "the recorder's queue was full: its encoder thread fell behind")])
        try log.close()

        let inspector = try LogInspector(path: path)
        let predicate = try StatePredicate(parsing: #"username == "u3" or username == "u\#(boundary + 10)" or username == "u\#(boundary * 2)""#)
        let matches = try inspector.matches(predicate, in: inspector.sessions())
        #expect(matches.map(\.step) == [3, boundary + 10, boundary * 2])
    }
}
