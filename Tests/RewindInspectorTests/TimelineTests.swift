import RewindInspector
import RewindLog
import Testing

@MainActor
@Suite struct TimelineTests {
    /// The demo's log and its session `login-invalid-then-fixed`.
    static func loginSession() async throws -> (LogInspector, SessionSummary, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let inspector = try LogInspector(path: path)
        return (inspector, try inspector.session("login-invalid-then-fixed"), folder)
    }

    @Test func theTimelineOfALoginSessionNamesEachChange() async throws {
        let (inspector, session, folder) = try await Self.loginSession()
        defer { withExtendedLifetime(folder) {} }
        let lines = TimelineRenderer().render(try inspector.timeline(of: session, steps: 7...9))
        #expect(
            lines == [
                "    7   +0.980s  login  didUpdatePassword(<redacted 5>)  password: <redacted 4> → <redacted 5>",
                "    8   +1.580s  login  didTapLogin                      errorMessage + \"Please correct the highlighted fields.\", isPasswordValid + false, isUsernameValid + false",
                "    9   +1.720s  login  didUpdateUsername(\"a\")           errorMessage − \"Please correct the highlighted fields.\", isUsernameValid − false, username: \"al\" → \"a\"",
            ])
    }

    /// The caller's own error, thrown from a page inside the walk or from the last page after
    /// it, comes out as it was, not as damage of the log.
    @Test func anErrorOfTheCallersBodyComesOutAsItWas() async throws {
        let (inspector, session, folder) = try await Self.loginSession()
        defer { withExtendedLifetime(folder) {} }
        for pageSize in [2, 500] {
            var pages = 0
            #expect(throws: Stop(page: 1)) {
                try inspector.pages(of: session, steps: 1...session.lastStep, pageSize: pageSize) { _ in
                    pages += 1
                    throw Stop(page: pages)
                }
            }
            #expect(pages == 1)
        }
    }
}

private struct Stop: Error, Equatable {
    let page: Int
}
