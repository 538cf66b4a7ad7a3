import Foundation
import GRDB
import RewindJSON
import Testing

/// What the commands do with a log changed after it was written: readers say so in one line
/// naming the step (exit 65), `check` lists it (exit 1), replay calls it damage rather than a
/// regression, and `show --force` shows it marked.
@Suite struct DamageTests {
    /// A demo log with one byte of step 8 of session 2 flipped: in one element of its record
    /// (its block deflated again, the checksum left as it was), in the block's checksum, or in
    /// the block's stored (compressed) data.
    static func flipped(_ part: String, in folder: TemporaryDirectory) async throws -> String {
        let path = folder.path("flipped-\(part).rewind")
        try await DemoLog.record(into: path)
        let surgery = BlockSurgery(path: path)
        let elements = ["time": 0, "digest": 1, "origin": 2, "action_type": 3, "action": 4, "patch": 5]
        if let element = elements[part] {
            try surgery.editRecord(session: 2, step: 8) { record in
                var text = Array(record[element].canonicalBytes)
                // A byte that leaves the value the same kind of JSON: a string's last letter, or
                // a number's last digit.
                if let quote = text.lastIndex(of: UInt8(ascii: "\"")) {
                    text[quote - 1] = text[quote - 1] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                } else {
                    let digit = text.lastIndex { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "8") }!
                    text[digit] += 1
                }
                record[element] = try JSONValue(parsing: text)
            }
            return path
        }
        var block = try surgery.block(session: 2, holding: 8)
        let first = block.firstStep
        switch part {
        case "checksum": block.checksum ^= 0xFF00
        default: block.data[block.data.count / 2] ^= 0x01
        }
        try surgery.write(block, session: 2, replacing: first)
        return path
    }

    /// A gap marker row that does not match its checksum: every reader of its session refuses
    /// it in one line (it counts the session's events), other sessions still read.
    @Test func aDamagedGapMarkerIsRefusedBySessionsLogAndShow() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gap.rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (2, 40, 41, 'lost', 12345)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let line = "rewind: \(path): the log is damaged: a gap marker of session #2 (login-invalid-then-fixed) does not match its checksum\n"
        for arguments in [["sessions", path], ["sessions", path, "--json"], ["log", path, "-s", "2"], ["show", path, "3", "-s", "2"]] {
            let result = try await RewindBinary.run(arguments)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr == line, "\(arguments)")
        }
        #expect(try await RewindBinary.run(["show", path, "3", "-s", "1"]).status == 0, "another session's steps read")
        #expect(try await RewindBinary.run(["check", path, "-s", "2"]).status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: ["time", "origin", "action_type", "action", "digest", "patch", "checksum", "data"])
    func aFlippedByteAnywhereIsNamedByCheckAndShow(part: String) async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.flipped(part, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let check = try await RewindBinary.run(["check", path, "-s", "2"])
        #expect(check.status == 1, "\(part)")
        #expect(check.stdout.contains("      - steps 1 through 28: the stored block does not match its checksum\n"), "\(part): \(check.stdout)")

        let show = try await RewindBinary.run(["show", path, "8", "-s", "2"])
        #expect(show.status == 65, "\(part)")
        #expect(
            show.stderr
                == "rewind: \(path): the log is damaged: step 8 of session #2 (login-invalid-then-fixed): its stored block (steps 1 through 28) does not match its checksum\n",
            "\(part)")
        // A block is checked whole: its other steps are refused too, those of other blocks read.
        #expect(try await RewindBinary.run(["show", path, "7", "-s", "2"]).status == 65, "the block's other steps")
        #expect(try await RewindBinary.run(["show", path, "8", "-s", "1"]).status == 0, "another session's steps read")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "readers never write")
    }

    @Test func anEditedActionIsDamageToReplayNotARegression() async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.flipped("action", in: folder)
        let replay = try await RewindBinary.run(["replay", path, "-s", "2"])
        #expect(replay.status == 65)
        #expect(replay.stdout == "")
        #expect(
            replay.stderr
                == "rewind: \(path): the log is damaged: step 1 of session #2 (login-invalid-then-fixed): its stored block (steps 1 through 28) does not match its checksum\n"
        )
        #expect(try await RewindBinary.run(["replay", path, "-s", "1"]).status == 0, "the other sessions still replay")
    }

    @Test func showForceShowsTheDamagedStepMarked() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("planted.rewind")
        try await DemoLog.record(into: path)
        // A valid patch that says something else than the recorder wrote.
        try BlockSurgery(path: path).editRecord(session: 2, step: 8) { record in
            record[5] = try JSONValue(parsing: record[5].canonicalString.replacingOccurrences(of: "Please correct", with: "Planted"))
        }
        let show = try await RewindBinary.run(["show", path, "8", "-s", "2", "--force"])
        #expect(show.status == 65)
        #expect(
            show.stdout.hasPrefix(
                "DAMAGED: step 8 of session #2 (login-invalid-then-fixed): its stored block (steps 1 through 28) does not match its checksum\n"))
        #expect(show.stdout.contains("action: login  didTapLogin"))
        #expect(show.stdout.contains(#"errorMessage: "Planted the highlighted fields.""#))
        #expect(
            show.stderr
                == "rewind: \(path): shown despite damage (--force): the log is damaged: step 8 of session #2 (login-invalid-then-fixed): its stored block (steps 1 through 28) does not match its checksum\n"
        )
    }
}
