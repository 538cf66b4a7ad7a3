import Foundation
import GRDB
import Testing

/// `Tests/Fixtures/login-happy-format1.rewind` is a log written by a rewind of log format 1
/// (no checksums, a row of `event` per step): what `recordings/` held before it moved to
/// format 3. Every reader still reads it, replay passes, and a writer migrates it to format 3
/// without changing what its session holds.
@Suite struct FormatOneFixtureTests {
    private static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/login-happy-format1.rewind")

    private func copy(into folder: TemporaryDirectory) throws -> String {
        let path = folder.path("format1.rewind")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)
        return path
    }

    private func userVersion(_ path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    @Test func readersReadItAndCheckWarnsOfRowsWithoutChecksums() throws {
        let folder = try TemporaryDirectory()
        let path = try copy(into: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try userVersion(path) == 1)
        let check = try RewindBinary.run(["check", path])
        #expect(check.status == 0)
        #expect(check.stdout.contains("  checksums  warning  21 rows written before logs had checksums: unchecked\n"), "\(check.stdout)")
        #expect(check.stdout.hasSuffix("check passed: 1 session, 7 checks, 0 problems, 1 warning\n"), "\(check.stdout)")
        let replay = try RewindBinary.run(["replay", path])
        #expect(replay.status == 0, "\(replay.stdout)")
        #expect(try RewindBinary.run(["show", path, "20"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "read-only commands leave it as it was")
    }

    @Test func aWriterMigratesItToTheCurrentFormatAndKeepsItsSession() throws {
        let folder = try TemporaryDirectory()
        let path = try copy(into: folder)
        let exported = try RewindBinary.run(["export", path, "-s", "1"]).stdout
        let record = try RewindBinary.run(["record", "login", "--script", "login-happy", "--output", path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(try userVersion(path) == 6)
        // Untouched, but for the identity the migration to format 4 gave it (and no metadata).
        let after = try RewindBinary.run(["export", path, "-s", "1"]).stdout
            .replacing(
                /"metadata":\{"app":null,"app_build":null,"app_version":null,"device":null,"origin":null,"os":null,"tags":\{\}\}/, with: #""metadata":null"#
            )
            .replacing(/"uuid":"[0-9A-F-]{36}"/, with: #""uuid":null"#)
        #expect(after == exported, "the old session is untouched")
        let check = try RewindBinary.run(["check", path])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.hasSuffix("check passed: 2 sessions, 13 checks, 0 problems, 1 warning\n"), "\(check.stdout)")
        #expect(try RewindBinary.run(["replay", path]).status == 0)
    }
}
