import Foundation
import GRDB
import RewindJSON
import Testing

/// `rewind check` on a clean demo log and on copies tampered with through SQLite.
@Suite struct CheckCommandTests {
    /// Records `demo.rewind` into `folder` with `rewind demo`.
    private func demo(in folder: TemporaryDirectory) throws -> String {
        let log = folder.path("demo.rewind")
        let result = try RewindBinary.run(["demo", "--output", log])
        #expect(result.status == 0, "\(result.stderr)")
        return log
    }

    /// Runs `rewind check` on `log` and checks that the file's bytes did not change.
    private func check(_ log: String, _ options: [String] = []) throws -> RewindBinary.Result {
        let before = FileManager.default.contents(atPath: log)
        let result = try RewindBinary.run(["check", log] + options)
        #expect(FileManager.default.contents(atPath: log) == before, "check never modifies the log")
        return result
    }

    @Test func aCleanDemoLogPasses() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let all = try check(log)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.hasSuffix("\ncheck passed: 7 sessions, 43 checks, 0 problems, 0 warnings\n"))
        let one = try check(log, ["--session", "photos-happy-browse"])
        #expect(
            one.stdout == """
                \(log)
                  integrity  ok       PRAGMA integrity_check (whole file): ok
                #4 (photos-happy-browse), photos flow
                  checksums  ok       every row matches its checksum (2 rows)
                  steps      ok       24 steps recorded of 1 through 24, none missing
                  gaps       ok       no gap marker
                  states     ok       every state rebuilds and matches its digest (25 states, step 0 included)
                  keyframes  ok       1 keyframe
                  secrets    ok       no redacted field
                check passed: 1 session, 7 checks, 0 problems, 0 warnings

                """)
        let json = try check(log, ["--json"])
        #expect(json.status == 0)
        let report = try JSONValue(parsing: json.stdout)
        #expect(report["passed"] == true)
        #expect(report["sessions[6].name"] == "app-full")
        #expect(report["sessions[6].checks.secrets.status"] == "ok")
    }

    /// A copy of the demo log changed by `surgery`.
    private func tampered(in folder: TemporaryDirectory, _ surgery: (BlockSurgery) throws -> Void) throws -> String {
        let log = try demo(in: folder)
        let copy = folder.path("tampered.rewind")
        try FileManager.default.copyItem(atPath: log, toPath: copy)
        try surgery(BlockSurgery(path: copy))
        return copy
    }

    @Test func aDeletedEventFailsAsMissingWithNoGapMarker() throws {
        let folder = try TemporaryDirectory()
        let log = try tampered(in: folder) { try $0.removeStep(session: 1, step: 5) }
        let result = try check(log, ["--session", "1"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                """
                  steps      problem  steps are missing with no gap marker to say why
                      - step 5 is missing and no gap marker covers it
                """))
        #expect(result.stdout.contains("      - steps 6 through 20 cannot be rebuilt: step 6 stores a patch but step 5 is missing\n"))
        #expect(result.stdout.hasSuffix("check failed: 1 session, 7 checks, 2 problems, 0 warnings\n"))
    }

    @Test func aChangedDigestFails() throws {
        let folder = try TemporaryDirectory()
        let log = try tampered(in: folder) { try $0.editRecord(session: 2, step: 7) { $0[1] = 255 } }
        let result = try check(log)
        #expect(result.status == 1)
        #expect(result.stdout.contains("      - step 7: stored digest 00000000000000ff, the rebuilt state's digest is "))
        #expect(
            result.stdout.contains(
                "  checksums  problem  rows changed since they were written (their checksums do not match)\n      - steps 1 through 28: the stored block does not match its checksum\n"
            ))
        let json = try JSONValue(parsing: try check(log, ["--json"]).stdout)
        #expect(json["passed"] == false)
        #expect(json["problems"] == 2)
        #expect(json["sessions[1].checks.states.status"] == "problem")
        #expect(json["sessions[0].checks.states.status"] == "ok")
    }

    @Test func aSecretInClearInAKeyframeFails() throws {
        let folder = try TemporaryDirectory()
        let log = try tampered(in: folder) { surgery in
            try surgery.editRecord(session: 1, step: 1) { record in
                guard case var .object(state) = record[6] else { return }
                state["password"] = "hunter2"
                record[6] = .object(state)
            }
        }
        let result = try check(log, ["--session", "login-happy"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("  secrets    problem  redacted fields hold clear values\n      - step 1: a clear value at password\n"))
        #expect(result.stdout.contains("      - steps 1 through 20: the stored block does not match its checksum\n"))
    }

    @Test(arguments: [
        (["check", "none.rewind"], 66, "rewind: none.rewind: no such file\n"),
        (
            ["check", "demo.rewind", "--session", "9"], 64,
            "rewind: demo.rewind: no session 9 (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))\n"
        ),
    ])
    func badArgumentsExitWithTheirCode(arguments: [String], status: Int32, message: String) throws {
        let folder = try TemporaryDirectory()
        _ = try demo(in: folder)
        let result = try RewindBinary.run(arguments, in: folder.url)
        #expect(result.status == status)
        #expect(result.stderr == message)
    }

    @Test func helpShowsAnExample() throws {
        #expect(try RewindBinary.run(["check", "--help"]).stdout.contains("Example"))
    }
}
