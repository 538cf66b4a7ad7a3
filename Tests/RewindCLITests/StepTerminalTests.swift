import Foundation
import Testing

/// `rewind step` on a real terminal: a detached tmux session of 200×50 runs it, the test
/// types keys with `tmux send-keys` and reads the screen with `tmux capture-pane`.
///
/// After `rewind` ends, the same shell prints its exit status and `stty -a`, so the test
/// can check that the terminal's settings were put back.
@Suite(.tmux)
struct StepTerminalTests {
    /// The shell command that runs `rewind` as `command`, then reports its status and the
    /// terminal's settings (the pane stays open after it ends).
    static func wrapped(_ command: String) -> String {
        "\(command); echo \"exited with $?\"; stty -a"
    }

    static func rewind(_ arguments: String...) -> String {
        ([RewindBinary.url.path] + arguments).map(Tmux.quoted).joined(separator: " ")
    }

    /// Whether `stty -a` on `screen` shows canonical mode and echo on again.
    static func terminalRestored(_ screen: String) -> Bool {
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        return words.isSuperset(of: ["icanon", "echo", "isig"]) && words.isDisjoint(with: ["-icanon", "-echo", "-isig"])
    }

    @Test func keysMoveAtOnceAndQuitRestoresTheTerminal() async throws {
        let (log, folder) = try StepCommandTests.demoLog()
        defer { withExtendedLifetime(folder) {} }
        let tmux = try Tmux(command: Self.wrapped(Self.rewind("step", log, "--session", "login-happy")))

        var screen = try await tmux.waitForScreen { $0.contains("#1 (login-happy): step 0 of 20") }
        #expect(screen.contains("#1 (login-happy): step 0 of 20"), "\(screen)")
        #expect(screen.contains("→/n next  ←/b back"), "the keys at the bottom")

        try tmux.send("n")
        try tmux.send("Right")
        screen = try await tmux.waitForScreen { $0.contains("step 2 of 20") }
        #expect(screen.contains("#1 (login-happy): step 2 of 20\n    2   +0.280s  login  didUpdateUsername(\"al\")"), "\(screen)")
        #expect(!screen.contains("step 0 of 20"), "the screen is redrawn, not appended to")

        try tmux.send("G")
        screen = try await tmux.waitForScreen { $0.contains("step 20 of 20") }
        #expect(screen.contains("#1 (login-happy): step 20 of 20"), "\(screen)")

        try tmux.send("Home")
        try tmux.send("/")
        try tmux.send("didTap*", literally: true)
        screen = try await tmux.waitForScreen { $0.contains("find: didTap*") }
        #expect(screen.contains("find: didTap*"), "the prompt shows what is typed: \(screen)")
        try tmux.send("Enter")
        screen = try await tmux.waitForScreen { $0.contains("step 18 of 20") }
        #expect(screen.contains("#1 (login-happy): step 18 of 20\n   18   +2.980s  login  didTapLogin"), "\(screen)")

        try tmux.send("j")
        try tmux.send("5", literally: true)
        try tmux.send("Enter")
        try tmux.send("d")
        screen = try await tmux.waitForScreen { $0.contains("changes from step 4 to step 5:") }
        #expect(screen.contains("#1 (login-happy): step 5 of 20"), "\(screen)")
        #expect(screen.contains("changes from step 4 to step 5:\n  ~ username: \"alic\" → \"alice\""), "\(screen)")

        try tmux.send("x")
        try tmux.send("b")
        screen = try await tmux.waitForScreen { $0.contains("step 4 of 20") }
        #expect(screen.contains("#1 (login-happy): step 4 of 20"), "an unbound key does nothing: \(screen)")

        try tmux.send("q")
        screen = try await tmux.waitForScreen { $0.contains("exited with") && $0.contains("icanon") }
        #expect(screen.contains("exited with 0"), "\(screen)")
        #expect(Self.terminalRestored(screen), "stty shows the terminal as it was: \(screen)")
    }

    @Test func sigtermRestoresTheTerminalBeforeEndingTheProcess() async throws {
        let (log, folder) = try StepCommandTests.demoLog()
        defer { withExtendedLifetime(folder) {} }
        let pidFile = folder.path("rewind.pid")
        // The shell writes its process id, then becomes `rewind` under the same id.
        let inner = "echo $$ > \(Tmux.quoted(pidFile)); exec \(Self.rewind("step", log, "--session", "login-happy", "--at", "3"))"
        let tmux = try Tmux(command: Self.wrapped("sh -c \(Tmux.quoted(inner))"))

        var screen = try await tmux.waitForScreen { $0.contains("step 3 of 20") }
        #expect(screen.contains("#1 (login-happy): step 3 of 20"), "\(screen)")
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), "pid file: \(text)")
        #expect(kill(pid, SIGTERM) == 0)
        screen = try await tmux.waitForScreen { $0.contains("exited with") && $0.contains("icanon") }
        #expect(screen.contains("exited with 143"), "ended by SIGTERM: \(screen)")
        #expect(Self.terminalRestored(screen), "stty shows the terminal as it was: \(screen)")
    }
}
