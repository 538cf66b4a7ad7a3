import Foundation
import GRDB
import Testing

/// What the commands do with a log changed after it was written: readers say so in one line
/// naming the step (exit 65), `check` lists it (exit 1), replay calls it damage rather than a
/// regression, and `show --force` shows it marked.
@Suite struct DamageTests {
    /// A demo log with one byte of one column of step 8 of session 2 flipped.
    static func flipped(_ column: String, in folder: TemporaryDirectory) async throws -> String {
        let path = folder.path("flipped-\(column).rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).write { db in
            let value: DatabaseValue = try #require(
                try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM event WHERE session_id = 2 AND step = 8"))
            let flipped: any DatabaseValueConvertible
            switch value.storage {
            case let .int64(number): flipped = number ^ 0xFF00
            case let .double(number): flipped = Double(bitPattern: number.bitPattern ^ 0xFF00)
            case let .string(text):
                var bytes = Array(text.utf8)
                bytes[bytes.count / 2] ^= 0x01
                flipped = String(decoding: bytes, as: UTF8.self)
            default: flipped = "x"
            }
            try db.execute(sql: "UPDATE event SET \(column) = ? WHERE session_id = 2 AND step = 8", arguments: [flipped])
        }
        return path
    }

    @Test(arguments: ["time", "origin", "action_type", "action", "digest", "patch", "checksum"])
    func aFlippedByteInAnyColumnIsNamedByCheckAndShow(column: String) async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.flipped(column, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let check = try RewindBinary.run(["check", path, "-s", "2"])
        #expect(check.status == 1, "\(column)")
        #expect(check.stdout.contains("      - step 8: the stored row does not match its checksum\n"), "\(column): \(check.stdout)")

        let show = try RewindBinary.run(["show", path, "8", "-s", "2"])
        #expect(show.status == 65, "\(column)")
        #expect(
            show.stderr
                == "rewind: \(path): the log is damaged: step 8 of session #2 (login-invalid-then-fixed): the stored row does not match its checksum\n",
            "\(column)")
        #expect(try RewindBinary.run(["show", path, "7", "-s", "2"]).status == 0, "the steps before it read")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "readers never write")
    }

    @Test func anEditedActionIsDamageToReplayNotARegression() async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.flipped("action", in: folder)
        let replay = try RewindBinary.run(["replay", path, "-s", "2"])
        #expect(replay.status == 65)
        #expect(replay.stdout == "")
        #expect(
            replay.stderr
                == "rewind: \(path): the log is damaged: step 8 of session #2 (login-invalid-then-fixed): the stored row does not match its checksum\n")
        #expect(try RewindBinary.run(["replay", path, "-s", "1"]).status == 0, "the other sessions still replay")
    }

    @Test func showForceShowsTheDamagedStepMarked() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("planted.rewind")
        try await DemoLog.record(into: path)
        // A valid patch that says something else than the recorder wrote.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE event SET patch = replace(patch, 'Please correct', 'Planted') WHERE session_id = 2 AND step = 8")
        }
        let show = try RewindBinary.run(["show", path, "8", "-s", "2", "--force"])
        #expect(show.status == 65)
        #expect(show.stdout.hasPrefix("DAMAGED: step 8 of session #2 (login-invalid-then-fixed): the stored row does not match its checksum\n"))
        #expect(show.stdout.contains("action: login  didTapLogin"))
        #expect(show.stdout.contains(#"errorMessage: "Planted the highlighted fields.""#))
        #expect(
            show.stderr
                == "rewind: \(path): shown despite damage (--force): the log is damaged: step 8 of session #2 (login-invalid-then-fixed): the stored row does not match its checksum\n"
        )
    }
}
