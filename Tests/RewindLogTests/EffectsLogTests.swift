import Foundation
import GRDB
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// What each step asked for (its follow-up actions and its work, named or counted) is stored
/// in the step's record and read back; sessions recorded before format 5 say "not recorded".
@Suite struct EffectsLogTests {
    @Test func whatEachStepAskedForComesBackFromTheLog() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("effects.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "effects", flow: "test"))
        recorder.start(initialState: 0)
        // Step 1 a keyframe, the others patches: the effects follow either.
        recorder.record(.tick, state: 1, step: 1, sends: [.tick], runs: ["auth.login", nil])
        recorder.record(.tick, state: 2, step: 2, cause: 1)
        recorder.record(.tick, state: 3, step: 3, outputs: [.tick], runs: [nil])
        recorder.record(.tick, state: 4, step: 4, cause: 1, runs: ["a \"quoted\" name"])
        recorder.close()
        try sink.close()

        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.formatVersion == 6)
        let events = try reader.events(of: session, steps: 1...4)
        #expect(
            events.map(\.effects) == [
                RecordedEffects(sends: ["tick"], runs: ["auth.login", nil]), RecordedEffects(), RecordedEffects(runs: [nil]),
                RecordedEffects(runs: ["a \"quoted\" name"]),
            ])
        #expect(events.map(\.outputs) == [[], [], ["tick"], []])
        #expect(events.map(\.cause) == [nil, 1, nil, 1])

        // The records as docs/log-format.md shows them: effects the tenth element, after a
        // null for each element before it that the step has not.
        let records = try BlockSurgery(path: path).block(session: 1, holding: 1).records()
        #expect(records.map(\.arrayCount) == [10, 8, 10, 10])
        #expect(records[0][5] == .null && records[0][7] == .null && records[0][8] == .null)
        #expect(records[0][9] == ["runs": ["auth.login", .null], "sends": ["tick"]])
        #expect(records[2][6] == .null && records[2][8] == ["tick"] && records[2][9] == ["runs": [.null]])
        #expect(records[3][7] == 1 && records[3][8] == .null)
    }

    @Test func aSessionOfAnOlderFormatHasItsEffectsNotRecorded() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.rewind")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Tests/Fixtures/login-happy-format3.rewind").path, toPath: path)
        let old = try LogReader(path: path)
        let session = try old.session(nil)
        #expect(session.formatVersion == 3)
        #expect(try old.events(of: session, steps: 1...session.lastStep).allSatisfy { $0.effects == nil })

        // A writer migrates the log to format 6 and leaves the old session's records alone.
        let sink = try SQLiteSink(path: path)
        try sink.close()
        let migrated = try LogReader(path: path)
        #expect(migrated.formatVersion == 6)
        let same = try migrated.session(nil)
        #expect(same.formatVersion == 3)
        #expect(try migrated.events(of: same, steps: 1...same.lastStep).allSatisfy { $0.effects == nil })
        // The view for queries by hand shows them (it needs the `sqlite3` shell's functions).
        let view = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'events'") }
        #expect(view?.contains("NULL AS effects") == true && view?.contains("json_extract(r.value, '$[9]')") == true)
    }
}
