import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindTestSupport
import Testing

/// `rewind write-test` through the real binary: what it writes, the same bytes every time,
/// and one-line refusals. tools/write-test-check compiles and runs what it writes.
@Suite struct WriteTestCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let login = root.appendingPathComponent("recordings/login-invalid-then-fixed.rewind").path

    @Test func theTestOfTheLoginSessionIsTheOneDocsTestingShows() throws {
        let result = try RewindBinary.run(["write-test", Self.login, "--output", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        let block = try #require(doc.components(separatedBy: "```swift\n").dropFirst(3).first?.components(separatedBy: "```\n").first)
        #expect(result.stdout == block)
    }

    @Test func aFileWrittenTwiceHasTheSameBytesAndNoPath() throws {
        let folder = try TemporaryDirectory()
        let first = folder.path("First.swift")
        let second = folder.path("Second.swift")
        let written = try RewindBinary.run(["write-test", Self.login, "-o", first])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "wrote 1 test (28 steps) to \(first)\n")
        #expect(try RewindBinary.run(["write-test", Self.login, "-o", second]).status == 0)
        let text = try String(contentsOfFile: first, encoding: .utf8)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        #expect(!text.contains(Self.root.path) && !text.contains(folder.path("")))
        #expect(text.hasPrefix("// Written by `rewind write-test` (Rewind 0.2.0), exhaustive, from:\n//   login-invalid-then-fixed.rewind, session 1"))
    }

    @Test func everySessionOfADemoLogIsATestOfItsOwnName() throws {
        let demo = try DemoLogFile()
        let output = demo.folder.path("DemoTests.swift")
        let result = try demo.run(["write-test", demo.path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let names = text.split(separator: "\n").filter { $0.hasPrefix("func ") }
        #expect(
            names == [
                "func loginHappy() async throws {", "func loginInvalidThenFixed() async throws {", "func loginNetworkErrorRetry() async throws {",
                "func photosHappyBrowse() async throws {", "func photosListErrorRetry() async throws {",
                "func photosThumbnailErrorRetry() async throws {", "func appFull() async throws {",
            ])
        #expect(result.stdout == "wrote 7 tests (178 steps) to \(output)\n")
    }

    @Test func aWindowStartsFromTheRecordedStateAndNumbersStepsAsTheRecording() throws {
        let result = try RewindBinary.run(["write-test", Self.login, "--from", "25", "--to", "27", "--non-exhaustive", "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(flow login, steps 25–27)"))
        #expect(result.stdout.contains("        effects: .byName, exhaustivity: .off, step: 25\n"))
        let steps = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    // Step") }
        #expect(steps == ["    // Step 26.", "    // Step 27, the result of step 26's work."])
    }

    @Test func aSessionShortenedFirstKeepsTheStepsThatMatter() throws {
        let result = try RewindBinary.run(["write-test", Self.login, "--minimize-until", "errorMessage != null", "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(flow login, steps 0–1, shortened from 28 steps)"))
        #expect(result.stdout.contains(#"$0.errorMessage = "Please correct the highlighted fields.""#))
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("    store.send(") }.count == 1)
    }

    @MainActor
    @Test func hostileStringsAreEscapedInTheHeaderTheNameAndTheValues() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("hostile.rewind")
        let hostile = "evil\u{1B}[2J\u{202E}\r\n\"#*/"
        try Self.recordLogin(named: hostile, typing: hostile, into: path)
        let result = try RewindBinary.run(["write-test", path, "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let escaped = ##"evil\u{1B}[2J\u{202E}\r\n\"#*/"##
        #expect(result.stdout.contains("//   hostile.rewind, session 1 \"\(escaped)\" (flow login, steps 0–1)\n"))
        // The test's name as the escaped text, which a test runner then prints as is.
        #expect(result.stdout.contains(##"@Test("evil\\u{1B}[2J\\u{202E}\\r\\n\\\"#*/ (session 1)")"## + "\nfunc evil2J() async throws {\n"))
        #expect(result.stdout.contains("    store.send(.didUpdateUsername(\"\(escaped)\")) {\n        $0.username = \"\(escaped)\"\n"))
        let invisible = result.stdout.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}") }
        #expect(invisible.isEmpty)
    }

    @Test(arguments: [
        (["--from", "30"], 64, "rewind: --from 30 --to 28 is outside session #1 (login-invalid-then-fixed), whose steps are 0–28"),
        (["--from", "5", "--to", "3"], 64, "rewind: --to must come after --from (see 'rewind write-test --help')"),
        (["-s", "1", "-s", "1", "--from", "2"], 64, "rewind: --from and --to take one session: give --session S once (see 'rewind write-test --help')"),
        (["-s", "nope"], 64, "rewind: LOG: no session nope (the log holds #1 (login-invalid-then-fixed))"),
        (["--reducer", "X()", "--minimize-until", "status =="], 64, "rewind: --minimize-until: "),
    ])
    func badRequestsAreRefusedInOneLineAndWriteNothing(arguments: [String], status: Int32, message: String) throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("Out.swift")
        let result = try RewindBinary.run(["write-test", Self.login, "-o", output] + arguments)
        #expect(result.status == status)
        let line = result.stderr.replacingOccurrences(of: Self.login, with: "LOG")
        #expect(line.hasPrefix(message), "\(line)")
        #expect(line.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func theLogItselfIsNeverTheOutput() throws {
        let folder = try TemporaryDirectory()
        let copy = folder.path("copy.rewind")
        try FileManager.default.copyItem(atPath: Self.login, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let result = try RewindBinary.run(["write-test", copy, "-o", copy])
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    /// Records a login session named `name` whose one step types `username`.
    @MainActor
    static func recordLogin(named name: String, typing username: String, into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: name, flow: LoginFlow.name, now: { .testEpoch }))
        let store = Store(initialState: LoginState(), reducer: LoginFeature(backend: .idle), middleware: [recorder])
        store.send(.didUpdateUsername(username))
        recorder.close()
        try sink.close()
    }
}
