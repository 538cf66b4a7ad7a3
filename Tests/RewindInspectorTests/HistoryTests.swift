import RewindInspector
import RewindJSON
import RewindLog
import Testing

@MainActor
@Suite struct HistoryTests {
    let folder: TemporaryDirectory
    let inspector: LogInspector

    init() async throws {
        folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        inspector = try LogInspector(path: path)
    }

    func history(_ path: JSONPath, in session: String) throws -> ValueHistory {
        try inspector.history(of: path, in: try inspector.session(session))
    }

    @Test func theStatusOfALoginThatFailsOnTheNetworkThenSucceeds() throws {
        let history = try history("status", in: "login-network-error-retry")
        #expect(
            HistoryRenderer().text(history) == [
                "    0  (initial)      status: \"idle\"",
                "   18  didTapLogin    status: \"idle\" → \"inFlight\"",
                "   19  loginResponse  status: \"inFlight\" → \"failed\"",
                "   20  didTapLogin    status: \"failed\" → \"inFlight\"",
                "   21  loginResponse  status: \"inFlight\" → \"succeeded\"",
            ])
        #expect(
            HistoryRenderer().jsonLines(history) == [
                #"{"action":"didTapLogin","new":"inFlight","old":"idle","origin":"login","step":18}"#,
                #"{"action":"loginResponse","new":"failed","old":"inFlight","origin":"login","step":19}"#,
                #"{"action":"didTapLogin","new":"inFlight","old":"failed","origin":"login","step":20}"#,
                #"{"action":"loginResponse","new":"succeeded","old":"inFlight","origin":"login","step":21}"#,
            ])
    }

    @Test func aThumbnailThatAppearsFailsAndLoadsOnRetry() throws {
        let history = try history("photos[3].status", in: "photos-thumbnail-error-retry")
        #expect(history.initialValue == nil)
        #expect(
            HistoryRenderer().text(history) == [
                "    0  (initial)          photos[3].status: (absent)",
                "    2  photosResponse     photos[3].status: (absent) → \"loading\"",
                "    6  thumbnailResponse  photos[3].status: \"loading\" → \"failed\"",
                "   18  didTapRetry        photos[3].status: \"failed\" → \"loading\"",
                "   19  thumbnailResponse  photos[3].status: \"loading\" → \"loaded\"",
            ])
        #expect(
            HistoryRenderer().jsonLines(history).prefix(2) == [
                #"{"action":"photosResponse","new":"loading","origin":"photos","step":2}"#,
                #"{"action":"thumbnailResponse","new":"failed","old":"loading","origin":"photos/thumbnail[4]","step":6}"#,
            ])
    }

    @Test func aValueThatAppearsAndDisappearsReadsAbsent() throws {
        let history = try history("errorMessage", in: "login-invalid-then-fixed")
        #expect(
            HistoryRenderer().text(history) == [
                "    0  (initial)          errorMessage: (absent)",
                "    8  didTapLogin        errorMessage: (absent) → \"Please correct the highlighted fields.\"",
                "    9  didUpdateUsername  errorMessage: \"Please correct the highlighted fields.\" → (absent)",
            ])
        #expect(
            HistoryRenderer().jsonLines(history) == [
                #"{"action":"didTapLogin","new":"Please correct the highlighted fields.","origin":"login","step":8}"#,
                #"{"action":"didUpdateUsername","old":"Please correct the highlighted fields.","origin":"login","step":9}"#,
            ])
    }

    @Test func aSecretShowsOnlyItsLength() throws {
        let lines = HistoryRenderer().text(try history("password", in: "login-happy"))
        #expect(lines.first == "    0  (initial)          password: <redacted 0>")
        #expect(lines.last == "   17  didUpdatePassword  password: <redacted 11> → <redacted 12>")
        let login = HistoryRenderer().text(try history("login", in: "app-full"))
        // An object's change reads as what changed inside it.
        #expect(login[1] == #"    1  didUpdateUsername  login: username: "" → "b""#)
        #expect(login.contains { $0.hasSuffix(#"login: password: <redacted 0> → <redacted 1>"#) }, "\(login)")
        #expect(!login.joined().contains("wonderland42") && !login.joined().contains("builder-2024"))
    }

    @Test func aValueThatAppearsOnceHasOneChange() throws {
        let history = try history("title", in: "photos-happy-browse")
        #expect(
            HistoryRenderer().text(history) == [
                "    0  (initial)       title: (absent)",
                "    2  photosResponse  title: (absent) → \"Popular this week\"",
            ])
        #expect(
            HistoryRenderer().jsonLines(history) == [
                #"{"action":"photosResponse","new":"Popular this week","origin":"photos","step":2}"#
            ])
    }

    @Test(arguments: ["nope", "photos[99].title", "status.deeper"])
    func aPathWithNoValueAtAnyStepIsABadRequest(path: String) throws {
        let session = try inspector.session("login-happy")
        #expect(throws: LogError(.noSuchValue, path: inspector.path, session: 1, "the path \(path) holds no value at any step of session #1 (login-happy)")) {
            try inspector.history(of: JSONPath(parsing: path), in: session)
        }
    }
}
