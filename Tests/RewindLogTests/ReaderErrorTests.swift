import Foundation
import GRDB
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

@Suite struct ReaderErrorTests {
    private func open(_ path: String) -> LogError? {
        do {
            _ = try LogReader(path: path).sessions()
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("nothing.rewind")
        #expect(open(path) == LogError.noFile(at: path))
        #expect(!FileManager.default.fileExists(atPath: path), "reading never creates the file")
    }

    @Test func anEmptyFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty.rewind")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(open(path) == LogError(.notALog, path: path, "not a Rewind log (an empty database)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test func randomBytes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("noise.rewind")
        let bytes = Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(open(path) == LogError(.notALog, path: path, "not a Rewind log (not a SQLite database)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aForeignSQLiteDatabase() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("foreign.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(open(path) == LogError(.notALog, path: path, "not a Rewind log (a SQLite database of another application)"))
    }

    @Test func aLogOfANewerFormat() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("future.rewind")
        try SQLiteSink(path: path).close()
        try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 99") }
        #expect(open(path) == LogError(.newerFormat, path: path, "written by a newer Rewind (log format 99; this rewind reads up to 6)"))
        #expect(throws: LogError.self) { try SQLiteSink(path: path) }
    }

    /// A sink released without `close()` leaves the file whole but in WAL mode, with no
    /// `-wal`: it reads in full, and reading it creates no `-wal` or `-shm` beside it.
    @Test func aWholeLogInWALModeWithoutItsWALReadsWithoutCreatingFiles() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("unclosed.rewind")
        do {
            let sink = try SQLiteSink(path: path)
            let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "ticks", flow: "test"))
            recorder.start(initialState: 0)
            for step in 1...3 { recorder.record(.tick, state: step, step: step) }
            recorder.close()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the last connection folded the WAL in")
        #expect(LogFileHeader(path: path)?.isWALMode == true)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let session = try LogReader(path: path).session(nil)
        #expect(session.lastStep == 3 && session.eventCount == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["unclosed.rewind"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func unknownSessionsAndSteps() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("one.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        recorder.record(.tick, state: 1, step: 1)
        recorder.close()
        try sink.close()

        let reader = try LogReader(path: path)
        #expect(throws: LogError(.noSuchSession, path: path, "no session nope (the log holds #1 (ticks))")) { try reader.session("nope") }
        let session = try reader.session(nil)
        #expect(throws: LogError(.noSuchStep, path: path, session: 1, step: 5, "step 5 is out of range: session #1 (ticks) has steps 0 through 1")) {
            try reader.state(of: session, at: 5)
        }
    }

    @Test func aStepInsideAGapIsNamedAsTheOneNotRecorded() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.ticksWithAGap(in: folder)
        let reader = try LogReader(path: path)
        let summary = try reader.session(nil)
        for step in 3...5 {
            #expect(throws: LogError.stepNotRecorded(step, of: summary, in: path)) { try reader.state(of: summary, at: step) }
        }
        #expect(try reader.state(of: summary, at: 2) == 2 && reader.state(of: summary, at: 6) == 6)
    }

    /// A session's event count is its steps less its gaps: a gap marker whose row no longer
    /// matches its checksum makes listing and choosing the session fail, as a damaged session
    /// row does, while `check`'s reading (allowing damage) still lists it.
    @Test func aDamagedGapMarkerIsRefusedByEveryReaderOfTheSession() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.ticksWithAGap(in: folder)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE gap SET last_step = 4") }
        let reader = try LogReader(path: path)
        let damage = LogError.damage(in: path, "a gap marker of session #1 (ticks) does not match its checksum", session: 1)
        #expect(throws: damage) { try reader.sessions() }
        #expect(throws: damage) { try reader.session(nil) }
        #expect(throws: damage) { try reader.session("ticks") }
        #expect(try reader.sessions(allowingDamage: true).map(\.number) == [1])
        #expect(try reader.gaps(of: reader.session(nil, allowingDamage: true), allowingDamage: true).map(\.rowCheck) == [.mismatch])
    }

    /// Ticks 1, 2 and 6, steps 3 through 5 a gap.
    static func ticksWithAGap(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("gap.rewind")
        let sink = try SQLiteSink(path: path)
        let session = try sink.beginSession(
            SessionHeader(
                name: "ticks", flow: "test", startedAt: Date(timeIntervalSince1970: 0), schemaVersion: 1, initialState: 0,
                initialDigest: JSONValue.int(0).digest, redactedPaths: []))
        func event(_ step: Int, _ state: RecordedEvent.StateRecord) -> RecordedEvent {
            let value: Int = if case .keyframe(.int(let value)) = state { value } else { step }
            return RecordedEvent(
                step: step, time: Date(timeIntervalSince1970: Double(step)), origin: "test", actionName: "tick", action: ["tick": [:]],
                cause: nil, outputs: [], effects: RecordedEffects(), digest: JSONValue.int(value).digest, state: state)
        }
        try sink.append(
            [event(1, .keyframe(1)), event(2, .patch(JSONPatch([.set(JSONPath([]), 2)]))), event(6, .keyframe(6))],
            gaps: [RecordingGap(steps: 3...5, reason: "the reducer is not deterministic")], redactedPaths: [], to: session)
        try sink.endSession(session)
        try sink.close()
        return path
    }

    /// A log with three ticks, each a patch after the first keyframe.
    private func threeTicks(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("ticks.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...3 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        try sink.close()
        return path
    }

    @Test func aChangedBlockIsDamageNamingTheStepAndItsBlock() throws {
        let folder = try TemporaryDirectory()
        let path = try threeTicks(in: folder)
        try BlockSurgery(path: path).editText(session: 1, step: 2) { $0 = $0.replacingOccurrences(of: "[[\"s\",[],2]]", with: "[[\"s\",[],7]]") }
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        let error = try #require(#expect(throws: LogError.self) { try reader.state(of: session, at: 3) })
        #expect(
            error
                == LogError.damage(
                    in: path, "step 3 of session #1 (ticks): its stored block (steps 1 through 3) does not match its checksum", session: 1, step: 3))
        // A block is checked whole: none of its steps reads.
        #expect(throws: LogError.self) { try reader.state(of: session, at: 1) }
        #expect(try reader.state(of: session, at: 0) == 0, "the initial state, in the session's row, still reads")
    }

    @Test func aResealedWrongPatchIsCaughtByTheStatesDigest() throws {
        let folder = try TemporaryDirectory()
        let path = try threeTicks(in: folder)
        try BlockSurgery(path: path).editText(session: 1, step: 2, resealing: true) {
            $0 = $0.replacingOccurrences(of: "[[\"s\",[],2]]", with: "[[\"s\",[],7]]")
        }
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(throws: LogError.damage(in: path, "step 2 of session #1 (ticks): the rebuilt state does not match its recorded digest", session: 1, step: 2)) {
            try reader.state(of: session, at: 2)
        }
    }

    @Test func damageIsMatchedByKindAndCarriesWhereAndWhy() throws {
        let folder = try TemporaryDirectory()
        let path = try threeTicks(in: folder)
        // A trailing comma: the record still reads as one, its patch is not valid JSON.
        try BlockSurgery(path: path).editText(session: 1, step: 2, resealing: true) {
            $0 = $0.replacingOccurrences(of: "[[\"s\",[],2]]", with: "[[\"s\",[],2,]]")
        }
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        do {
            _ = try reader.state(of: session, at: 3)
            Issue.record("the damaged patch was not noticed")
        } catch LogError.damaged {
            // matched by kind, as `catch DatabaseError.SQLITE_…` matches GRDB's errors
        } catch {
            Issue.record("expected damage, got \(error)")
        }
        let error = try #require(#expect(throws: LogError.self) { try reader.state(of: session, at: 3) })
        #expect(error.kind == .damaged)
        #expect(error.path == path)
        #expect(error.session == 1)
        #expect(error.step == 2)
        #expect(error.underlying is JSONParseError)
        #expect(error.description.hasPrefix("\(path): the log is damaged: step 2 of session #1 (ticks): a stored value is not valid JSON"))
    }

    @Test func aValueOfTheWrongKindNamesItsStepAndBlockOnly() throws {
        let folder = try TemporaryDirectory()
        let path = try threeTicks(in: folder)
        // Step 2's origin, a number where a string belongs.
        try BlockSurgery(path: path).editRecord(session: 1, step: 2, resealing: true) { $0[2] = 7 }
        let reader = try LogReader(path: path)
        let error = try #require(#expect(throws: LogError.self) { try reader.events(of: reader.session(nil), steps: 1...3) })
        #expect(
            error
                == LogError.damage(
                    in: path, "steps 1 through 3 of session #1 (ticks): the stored block cannot be read: step 2's origin is not a string",
                    session: 1, step: 1))
    }
}

enum Tick: String, Codable, Equatable, Sendable, DescribedAction {
    case tick
    var origin: String { "test" }
}
