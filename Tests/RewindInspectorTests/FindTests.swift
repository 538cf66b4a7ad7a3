import RewindInspector
import RewindJSON
import RewindLog
import Testing

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
