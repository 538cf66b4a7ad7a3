import Foundation
import RewindTestSupport
import Testing

/// `rewind step --follow` on a real terminal (tmux, as in ``StepTerminalTests``) while the
/// test records into the session it steps through.
@Suite(.tmux)
struct StepFollowTerminalTests {
    @Test func theScreenShowsNewStepsAndTheKeysReachThem() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        // The session is recorded on the main actor; tmux is waited for off it.
        let live = try await LiveLoginSession(path: path)
        await live.record(3)
        let tmux = try Tmux(command: StepTerminalTests.wrapped(StepTerminalTests.rewind("step", path, "--follow")))

        var screen = try await tmux.waitForScreen { $0.contains("#1 (live): step 0 of 3") }
        #expect(screen.contains("#1 (live): step 0 of 3\n    0   +0.000s  (initial state)\n  {\n    password: <redacted 0>"), "\(screen)")

        await live.record(2)
        screen = try await tmux.waitForScreen { $0.contains("step 0 of 5") }
        #expect(screen.contains("#1 (live): step 0 of 5"), "redrawn as the session grows, with no key pressed: \(screen)")

        try tmux.send("G")
        screen = try await tmux.waitForScreen { $0.contains("step 5 of 5") }
        #expect(screen.contains("#1 (live): step 5 of 5\n    5   +0.000s  login  didUpdateUsername(\"u5\")"), "\(screen)")

        try await live.end()
        try tmux.send("b")
        screen = try await tmux.waitForScreen { $0.contains("step 4 of 5") }
        #expect(screen.contains("#1 (live): step 4 of 5"), "the session's end does not end stepping: \(screen)")

        try tmux.send("q")
        screen = try await tmux.waitForScreen { $0.contains("exited with") && $0.contains("icanon") }
        #expect(screen.contains("exited with 0"), "\(screen)")
        #expect(StepTerminalTests.terminalRestored(screen), "\(screen)")
    }
}
