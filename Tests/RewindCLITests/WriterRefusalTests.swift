import Foundation
import GRDB
import Testing

/// Commands that write (`record`, `import`, `demo`, `replay --update`) refuse a file that is
/// not a sound Rewind log of a format they write, before changing a byte of it: the file is
/// byte-identical afterwards and has no `-wal` or `-shm` beside it.
@Suite struct WriterRefusalTests {
    /// How each bad file is made.
    enum BadFile: String, CaseIterable, Sendable {
        /// A demo log with one page's header flipped: SQLite's quick_check fails.
        case damaged
        /// Another application's SQLite database.
        case foreign
        /// A Rewind log from a newer Rewind.
        case newer
        /// A file with Rewind's id and version whose tables lack columns.
        case wrongColumns
        /// A demo log whose schema declares a column's type with one byte changed (`REAL` →
        /// `REAM`): every reader can read it, but SQLite would store new rows differently.
        case alteredSchema
    }

    static func make(_ kind: BadFile, at path: String, demo: String) throws {
        switch kind {
        case .damaged:
            try FileManager.default.copyItem(atPath: demo, toPath: path)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            // The b-tree page type of page 3, which SQLite reads when it walks the tables.
            bytes[2 * 4_096] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: path))
        case .foreign:
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "CREATE TABLE contact (name TEXT); INSERT INTO contact VALUES ('Ada')")
            }
        case .newer:
            try FileManager.default.copyItem(atPath: demo, toPath: path)
            try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 9") }
        case .wrongColumns:
            try DatabaseQueue(path: path).writeWithoutTransaction { db in
                try db.execute(
                    sql: """
                        CREATE TABLE session (id INTEGER PRIMARY KEY, title TEXT);
                        CREATE TABLE event (session_id INTEGER, step INTEGER);
                        CREATE TABLE gap (session_id INTEGER);
                        PRAGMA application_id = 1381453380;
                        PRAGMA user_version = 2;
                        """)
            }
        case .alteredSchema:
            try FileManager.default.copyItem(atPath: demo, toPath: path)
            try DatabaseQueue(path: path).writeWithoutTransaction { db in
                try db.execute(
                    sql: """
                        PRAGMA writable_schema = ON;
                        UPDATE sqlite_master SET sql = replace(sql, 'started_at REAL', 'started_at REAM') WHERE name = 'session';
                        PRAGMA writable_schema = OFF;
                        """)
            }
        }
    }

    /// Every command that writes, against `path`.
    static func writers(of path: String, export: String) -> [[String]] {
        [
            ["record", "login", "--script", "login-happy", "--output", path],
            ["import", export, "--output", path],
            ["demo", "--output", path],
            ["replay", path, "--update"],
        ]
    }

    @Test(arguments: BadFile.allCases)
    func writersRefuseABadFileAndLeaveItByteForByte(kind: BadFile) throws {
        let folder = try TemporaryDirectory()
        let demo = folder.path("demo.rewind")
        #expect(try RewindBinary.run(["demo", "--output", demo]).status == 0)
        let export = folder.path("demo.jsonl")
        #expect(try RewindBinary.run(["export", demo, "--session", "1", "--output", export]).status == 0)
        let path = folder.path("bad.rewind")
        try Self.make(kind, at: path, demo: demo)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in Self.writers(of: path, export: export) {
            let result = try RewindBinary.run(arguments)
            #expect(result.status != 0, "\(kind): \(arguments) succeeded")
            #expect(result.stderr.hasPrefix("rewind: ") && result.stderr.split(separator: "\n").count == 1, "\(kind): \(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(kind): \(arguments) changed the file")
            for sibling in [path + "-wal", path + "-shm", path + "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: sibling), "\(kind): \(arguments) left \(sibling)")
            }
        }
    }

    /// An empty file (what `mktemp` and `touch` make) is a new log to every writer that
    /// creates one: it becomes a log that `check` passes, with mode 0600 whatever mode it had.
    @Test func everyWriterTakesAnEmptyFileAsANewLog() throws {
        let folder = try TemporaryDirectory()
        let demo = folder.path("demo.rewind")
        #expect(try RewindBinary.run(["demo", "--output", demo]).status == 0)
        let export = folder.path("demo.jsonl")
        #expect(try RewindBinary.run(["export", demo, "--session", "1", "--output", export]).status == 0)
        for (index, arguments) in Self.writers(of: "", export: export).dropLast().enumerated() {
            let path = folder.path("empty-\(index).rewind")
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
            let result = try RewindBinary.run(arguments.map { $0.isEmpty ? path : $0 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try RewindBinary.run(["check", path]).status == 0, "\(arguments)")
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(arguments)")
        }
        // `minimize` adds its session to a log the same way.
        let minimized = folder.path("empty-minimized.rewind")
        #expect(FileManager.default.createFile(atPath: minimized, contents: nil))
        let minimize = try RewindBinary.run([
            "minimize", demo, "-s", "login-invalid-then-fixed", "--until", "errorMessage != null", "--output", minimized,
        ])
        #expect(minimize.status == 0, "\(minimize.stderr)")
        #expect(try RewindBinary.run(["check", minimized]).status == 0)
    }

    @Test func theMessagesSayWhatIsWrong() throws {
        let folder = try TemporaryDirectory()
        let demo = folder.path("demo.rewind")
        #expect(try RewindBinary.run(["demo", "--output", demo]).status == 0)
        let expected: [BadFile: (Int32, String)] = [
            .damaged: (65, "the log is damaged"),
            .foreign: (65, "not a Rewind log (a SQLite database of another application)"),
            .newer: (65, "written by a newer Rewind (log format 9; this rewind reads up to 6)"),
            .wrongColumns: (65, "the log is damaged: the table session has no column name"),
            .alteredSchema: (65, "the log is damaged: its schema is not the one Rewind writes (table session differs)"),
        ]
        for (kind, (status, message)) in expected {
            let path = folder.path("\(kind.rawValue).rewind")
            try Self.make(kind, at: path, demo: demo)
            let result = try RewindBinary.run(["record", "login", "--script", "login-happy", "--output", path])
            #expect(result.status == status, "\(kind): \(result.stderr)")
            #expect(result.stderr.hasPrefix("rewind: \(path): \(message)"), "\(kind): \(result.stderr)")
        }
    }
}
