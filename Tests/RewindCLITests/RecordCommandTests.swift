import Foundation
import Testing

@Suite struct RecordCommandTests {
    @Test func recordsAScriptedSessionAndAddsTheNextOneAfterIt() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("r.rewind")
        let first = try RewindBinary.run(["record", "login", "--script", "login-happy", "--output", log])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "recorded session #1 (login-happy, login flow): 20 steps into \(log)\n")
        let second = try RewindBinary.run(["record", "photos", "--random", "--seed", "3", "--steps", "50", "--output", log])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("recorded session #2 (random-photos-seed3-50, photos flow): "))
    }

    @Test(arguments: [
        (["record", "settings", "--random", "--output", "x.rewind"], "unknown flow 'settings'; choose one of app, login, photos"),
        (["record", "login", "--output", "x.rewind"], "choose --script NAME or --random"),
        (
            ["record", "login", "--script", "photos-happy-browse", "--output", "x.rewind"],
            "no script 'photos-happy-browse' for flow login; choose one of login-happy, login-invalid-then-fixed, login-network-error-retry"
        ),
        (["record", "login", "--random", "--script", "login-happy", "--output", "x.rewind"], "choose either --script or --random, not both"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.rewind")))
    }

    @Test func aFlowRegisteredOnlyForReplayIsSaidToHaveNothingToRecord() throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(["record", "login", "--random", "--output", "x.rewind"], in: folder.url, program: "crashing-rewind")
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "crashing-rewind: flow 'login' is registered for replay, but crashing-rewind has no script or random driver to record it; "
                + "give RewindCommandLine scripts: or randomScript: (docs/cli.md#recording-an-apps-sessions) (see 'crashing-rewind record --help')\n",
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.rewind")))
    }
}
