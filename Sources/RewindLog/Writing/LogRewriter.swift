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
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Like the sink: the replaced states' text is zeroed, not left in freed pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in
                try LogSchema.validate(db, path: path, allowEmpty: false)
                let steps = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT step, keyframe IS NOT NULL AS is_keyframe FROM event WHERE session_id = ? ORDER BY step
                        """, arguments: [session.number])
                guard steps.count == states.count else {
                    throw LogError(
                        .invalidArgument, path: path, session: session.number,
                        "session \(session.label) has \(steps.count) recorded steps but \(states.count) replayed states"
                    )
                }
                let update = try db.cachedStatement(sql: "UPDATE event SET digest = ?, keyframe = ?, patch = ? WHERE session_id = ? AND step = ?")
                var previous = initialState
                for (row, state) in zip(steps, states) {
                    let isKeyframe: Bool = try row.stored("is_keyframe")
                    let step: Int = try row.stored("step")
                    try update.execute(arguments: [
                        state.digest.databaseValue,
                        isKeyframe ? state.canonicalString : nil,
                        isKeyframe ? nil : JSONPatch.between(previous, state).json.canonicalString,
                        session.number, step,
                    ])
                    previous = state
                }
                if let actions {
                    let replace = try db.cachedStatement(
                        sql: """
                            UPDATE event SET action = ?, action_type = ?, origin = ?, outputs = ? WHERE session_id = ? AND step = ?
                            """)
                    for (row, action) in zip(steps, actions) {
                        let step: Int = try row.stored("step")
                        try replace.execute(arguments: [
                            action.action.canonicalString, action.name, action.origin,
                            action.outputs.isEmpty ? nil : JSONValue.array(action.outputs).canonicalString,
                            session.number, step,
                        ])
                    }
                }
                try db.execute(
                    sql: "UPDATE session SET initial_state = ?, initial_digest = ?, schema_version = ? WHERE id = ?",
                    arguments: [initialState.canonicalString, initialState.digest.databaseValue, schemaVersion, session.number]
                )
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
