import RewindInspector
import RewindLog
import Testing

@MainActor
@Suite struct TimelineTests {
    @Test func theTimelineOfALoginSessionNamesEachChange() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let inspector = try LogInspector(path: path)
        let session = try inspector.session("login-invalid-then-fixed")
        let lines = TimelineRenderer().render(try inspector.timeline(of: session, steps: 7...9))
        #expect(
            lines == [
                "    7   +0.980s  login  didUpdatePassword(<redacted 5>)  password: <redacted 4> → <redacted 5>",
                "    8   +1.580s  login  didTapLogin                      errorMessage + \"Please correct the highlighted fields.\", isPasswordValid + false, isUsernameValid + false",
                "    9   +1.720s  login  didUpdateUsername(\"a\")           errorMessage − \"Please correct the highlighted fields.\", isUsernameValid − false, username: \"al\" → \"a\"",
            ])
    }
}
