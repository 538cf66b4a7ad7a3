import Foundation
import GRDB
import RewindCore
import RewindJSON

/// Rewrites the recorded states of a session (the actions stay): how `rewind replay --update`
/// accepts an intended change of behaviour.
package struct LogRewriter {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    /// Replaces the states after steps 1 through `states.count` of a session, each stored as
    /// the recorder stores it (``KeyframeSchedule``),
    /// and sets the session's schema version; `actions`, when
    /// given, replace the recorded actions, their names, origins and outputs in the same order
    /// (moved to the new schema).
    package func rewrite(
        session: SessionSummary, initialState: JSONValue, states: [JSONValue], actions: [RewrittenAction]? = nil, schemaVersion: Int
    ) throws(LogError) {
        // Checked read-only first: a file that is not a sound log is refused before a byte of
        // it changes. The steps are read, each checked, before writing begins.
        try LogSchema.checkBeforeWriting(path)
        let recorded = try LogReader(path: path).events(of: session, steps: 1...max(1, session.lastStep))
        guard recorded.count == states.count, actions.map({ $0.count == states.count }) ?? true else {
            throw LogError(
                .invalidArgument, path: path, session: session.number,
                "session \(session.label) has \(recorded.count) recorded steps but \(states.count) replayed states"
                    + (actions.map { " and \($0.count) migrated actions" } ?? ""))
        }
        // A session whose effects were not recorded, and not replayed, stays of the format
        // before effects, and keeps its digests' rule: it is in blocks now, but says nothing of
        // its effects. Any other is written in the newest format, its digests taken anew.
        let recordsEffects = recorded.indices.allSatisfy { (actions?[$0].effects ?? recorded[$0].effects) != nil }
        let digestRule = SessionHeader.digestRule(recordingEffects: recordsEffects)
        var previous = initialState, previousStep = 0
        var keyframes = RecorderConfiguration().keyframes
        var events: [RecordedEvent] = []
        events.reserveCapacity(recorded.count)
        for (index, (event, state)) in zip(recorded, states).enumerated() {
            let action = actions?[index]
            events.append(
                RecordedEvent(
                    step: event.step, time: event.time, origin: action?.origin ?? event.origin, actionName: action?.name ?? event.actionName,
                    action: action?.action ?? event.action, cause: event.cause, outputs: action?.outputs ?? event.outputs,
                    effects: action?.effects ?? event.effects, digest: state.digest(by: digestRule),
                    state: keyframes.record(
                        of: state, at: event.step, after: previous, followingStoredStep: previousStep > 0 && event.step == previousStep + 1)))
            previous = state
            previousStep = event.step
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Like the sink: the replaced states' text is zeroed, not left in freed pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            // An older log gains the blocks' table first; the session is rewritten into blocks.
            try LogSchema.migrator.migrate(database)
            try database.write { db in
                for table in ["event", "event_block"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE session_id = ?", arguments: [session.number])
                }
                try EventBlockWriter(session: session.number).append(events, in: db)
                var sessionRow = try SessionRow.fetch(db, id: session.number, path: path)
                sessionRow.initialState = initialState.canonicalString
                sessionRow.initialDigest = initialState.digest(by: digestRule).databaseValue
                sessionRow.schemaVersion = Int64(schemaVersion)
                sessionRow.formatVersion = Int64(recordsEffects ? LogSchema.formatVersion : LogSchema.effectsFormatVersion - 1)
                try sessionRow.save(db)
            }
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
            }
        } catch {
            throw LogReader.logError(error, path: path)
        }
    }
}
