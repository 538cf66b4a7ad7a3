import Foundation
import Testing

/// `replay --skip`: a session replayed as if some steps had not happened, on the demo log.
@Suite struct WhatIfCommandTests {
    @Test func withoutTheRetryTheLoginStaysFailed() throws {
        let log = try DemoLogFile()
        let result = try log.run(["replay", log.path, "-s", "login-network-error-retry", "--skip", "20-21"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                what-if #3 (login-network-error-retry): without steps 20-21 and the step they caused (22), 19 of 22 steps replayed
                recorded step 22 → without them:
                + errorMessage: "The network connection was lost (login)."
                ~ status: "succeeded" → "failed"

                """)
    }

    @Test func onlyUntilComparesAtThatStepAndOutputWritesTheReplay() throws {
        let log = try DemoLogFile()
        let folder = try TemporaryDirectory()
        let written = folder.path("what-if.rewind")
        let result = try log.run(["replay", log.path, "-s", "3", "--skip", "18", "--only-until", "19", "--output", written, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == #"{"behaviour":[],"changes":[{"change":"removed","old":"The network connection was lost (login).","path":"errorMessage"},{"change":"removed","old":true,"path":"isPasswordValid"},{"change":"removed","old":true,"path":"isUsernameValid"},{"change":"changed","new":"idle","old":"failed","path":"status"}],"compared_step":19,"consequences":[19],"possible":true,"replayed":17,"session":3,"skipped":[18],"written_session":1}"#
                + "\n")
        let sessions = try RewindBinary.run(["sessions", written, "--json"]).stdout
        #expect(sessions.contains(#""name":"login-network-error-retry-what-if""#) && sessions.contains(#""steps":17"#), "\(sessions)")
        #expect(try RewindBinary.run(["replay", written]).status == 0, "its states are the current reducer's")
    }

    @Test(arguments: [
        (["--skip", "99"], "rewind: LOG: session #3 (login-network-error-retry) has no step 99 to skip (it has 1 to 22)"),
        (["--skip", "2,5-99999999999"], "rewind: LOG: session #3 (login-network-error-retry) has no step 23 to skip (it has 1 to 22)"),
        (["--skip", "3-1"], "rewind: '3-1' in '3-1' is not a step or a range of steps (like 12,15-18; steps count from 1) (see 'rewind replay --help')"),
        (["--skip", "0"], "rewind: '0' in '0' is not a step or a range of steps (like 12,15-18; steps count from 1) (see 'rewind replay --help')"),
        (["--skip", "2", "--update"], "rewind: --skip asks what if; --update checks the recording: choose one (see 'rewind replay --help')"),
        (["--only-until", "4"], "rewind: --only-until goes with --skip (see 'rewind replay --help')"),
        (["--skip", "2", "--only-until", "40"], "rewind: LOG: session #3 (login-network-error-retry) has no step 40 (it has 0 to 22)"),
        (["--skip", "2", "--output", "LOG"], "rewind: LOG: the output is the log being read: write the replayed session to another file"),
    ])
    func refusalsAreOneLineAndExit64(arguments: [String], message: String) throws {
        let log = try DemoLogFile()
        let result = try log.run(["replay", log.path, "-s", "3"] + arguments.map { $0 == "LOG" ? log.path : $0 })
        #expect(result.status == 64)
        #expect(result.stderr == message.replacingOccurrences(of: "LOG", with: log.path) + "\n")
    }
}
