import Foundation
import Testing

/// `rewind record --retain-*`: a session trimmed to its end, as a flight recorder keeps it, and
/// how every reader shows it and starts from its first kept state.
@Suite struct RetentionCommandTests {
    /// The check of issue 31: 100,000 random login steps keeping the last 1,000.
    @Test func aSessionKeepingItsLast1000StepsIsShownTrimmedChecksAndReplays() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("flight.rewind")
        let record = try RewindBinary.run(["record", "login", "--random", "--steps", "100000", "--retain-steps", "1000", "--output", log])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout == "recorded session #1 (random-login-seed1-100000, login flow): 100000 steps into \(log), steps 1-98,815 not kept\n")

        let sessions = try RewindBinary.run(["sessions", log])
        let lines = sessions.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("duration  trimmed") == true, "\(sessions.stdout)")
        #expect(lines.last?.hasSuffix("1185 kept, steps 1-98,815 not kept") == true, "\(sessions.stdout)")
        let json = try RewindBinary.run(["sessions", log, "--json"])
        #expect(json.stdout.contains(#""events":1185,"#) && json.stdout.contains(#""not_kept":{"first":1,"last":98815}"#), "\(json.stdout)")

        let check = try RewindBinary.run(["check", log])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("  gaps       ok       steps 1 through 98815 not kept, as the log's retention keeps only the end of a session\n"))

        let replay = try RewindBinary.run(["replay", log])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(
            replay.stdout
                == "ok      \(log) #1 (random-login-seed1-100000) [steps 1-98,815 not kept]: 1184 steps replayed, every state matches "
                + "(from the first kept state, step 98816; 1184 with redacted fields compared as placeholders)\n")
    }

    @Test func readersStartFromTheFirstKeptStepAndSayWhatIsNotKept() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("flight.rewind")
        let record = try RewindBinary.run(["record", "login", "--random", "--steps", "3000", "--retain-steps", "300", "--output", log])
        #expect(record.stdout.hasSuffix(", steps 1-2,559 not kept\n"), "\(record.stdout)")

        let timeline = try RewindBinary.run(["log", log, "--to", "2561"])
        let lines = timeline.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(timeline.stdout)")
        #expect(lines.first == "      steps 1-2,559 not kept")
        #expect(lines.dropFirst().first?.hasPrefix(" 2560 ") == true)
        #expect(lines.dropFirst().first?.hasSuffix("(the whole state: the steps before are missing)") == true, "\(timeline.stdout)")

        let notKept = try RewindBinary.run(["show", log, "5"])
        #expect(notKept.status == 64)
        #expect(
            notKept.stderr
                == "rewind: \(log): step 5 of session #1 (random-login-seed1-3000) is not kept (steps 1-2,559 not kept; the first kept step is 2560)\n")
        let first = try RewindBinary.run(["show", log, "2560"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("#1 (random-login-seed1-3000) step 2560 of 3000 [steps 1-2,559 not kept], +"), "\(first.stdout)")

        let history = try RewindBinary.run(["history", log, "status"])
        let historyLines = history.stdout.split(separator: "\n").map(String.init)
        #expect(historyLines.first == "       steps 1-2,559 not kept", "\(history.stdout)")
        #expect(historyLines.dropFirst().first?.hasPrefix(" 2560  (first kept)") == true, "\(history.stdout)")

        let found = try RewindBinary.run(["find", log, "--where", "status != null", "--first"])
        #expect(found.stdout.hasPrefix("#1 random-login-seed1-3000  step 2560  "), "\(found.stdout)")

        let minimized = try RewindBinary.run(["minimize", log, "--until", "status == \"succeeded\"", "--output", folder.path("small.rewind")])
        #expect(minimized.status == 0, "\(minimized.stderr)")
        #expect(try RewindBinary.run(["replay", folder.path("small.rewind")]).status == 0)
    }

    @Test(arguments: [
        (["--retain-steps", "0"], "--retain-steps must be at least 1"),
        (["--retain-minutes", "0"], "--retain-minutes must be a number above 0"),
        (["--retain-bytes", "0"], "--retain-bytes must be at least 1"),
    ])
    func aRetentionOfNothingIsAUsageError(option: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(["record", "login", "--random", "--output", "x.rewind"] + option, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.rewind")))
    }
}
