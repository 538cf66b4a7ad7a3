import Foundation
import GRDB
import RewindJSON

/// Rewrites the recorded states of a session (the actions stay): how `rewind replay --update`
/// accepts an intended change of behaviour.
public struct LogRewriter {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Replaces the states after steps 1 through `states.count` of a session, keeping each
    /// step's keyframe or patch form, and sets the session's schema version; `actions`, when
    /// given, replace the recorded actions, their names, origins and outputs in the same order
    /// (moved to the new schema).
    public func rewrite(
        session: SessionSummary, initialState: JSONValue, states: [JSONValue], actions: [RewrittenAction]? = nil, schemaVersion: Int
    ) throws(LogError) {
        // Checked read-only first: a file that is not a sound log is refused before a byte of
        // it changes.
        try LogSchema.checkBeforeWriting(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Like the sink: the replaced states' text is zeroed, not left in freed pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            // A log of version 1 gains its checksum columns, so the rewritten rows carry them.
            try LogSchema.migrator.migrate(database)
            try database.write { db in
                let columns = LogSchema.columns[1].columns.joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT \(columns), checksum FROM event WHERE session_id = ? ORDER BY step", arguments: [session.number])
                guard rows.count == states.count else {
                    throw LogError(
                        .invalidArgument, path: path, session: session.number,
                        "session \(session.label) has \(rows.count) recorded steps but \(states.count) replayed states"
                    )
                }
                let update = try db.cachedStatement(
                    sql: """
                        UPDATE event SET action = ?, action_type = ?, origin = ?, outputs = ?, digest = ?, keyframe = ?, patch = ?,
                                         checksum = ?
                        WHERE session_id = ? AND step = ?
                        """)
                var previous = initialState
                for (index, (row, state)) in zip(rows, states).enumerated() {
                    let step: Int = try row.stored("step")
                    guard LogReader.check(row, table: "event", columns: LogSchema.columns[1].columns.count) != .mismatch else {
                        throw LogError.damage(
                            in: path, "step \(step) of session \(session.label): the stored row does not match its checksum",
                            session: session.number, step: step)
                    }
                    var event = try RewrittenEvent(row)
                    event.digest = state.digest.databaseValue
                    if event.keyframe != nil {
                        event.keyframe = state.canonicalString
                    } else {
                        event.patch = JSONPatch.between(previous, state).json.canonicalString
                    }
                    if let action = actions?[index] {
                        event.action = action.action.canonicalString
                        event.actionType = action.name
                        event.origin = action.origin
                        event.outputs = action.outputs.isEmpty ? nil : JSONValue.array(action.outputs).canonicalString
                    }
                    try update.execute(arguments: [
                        event.action, event.actionType, event.origin, event.outputs, event.digest, event.keyframe, event.patch,
                        event.checksum(session: session.number), session.number, step,
                    ])
                    previous = state
                }
                var sessionRow = try SessionRow.fetch(db, id: session.number, path: path)
                sessionRow.initialState = initialState.canonicalString
                sessionRow.initialDigest = initialState.digest.databaseValue
                sessionRow.schemaVersion = Int64(schemaVersion)
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
