import RewindCore
import RewindJSON
import RewindLog

/// Replays recorded sessions through the current reducers and reports the first step whose
/// state differs from the recording.
public struct Replayer: Sendable {
    public let registry: ReplayRegistry

    public init(registry: ReplayRegistry) {
        self.registry = registry
    }

    /// Replays the sessions of the log at `path` (one, when `selector` names it), or only
    /// those of them in `shard`.
    ///
    /// - Parameter keepingStates: also return every replayed state, to update the recording.
    public func replay(
        path: String, session selector: String? = nil, keepingStates: Bool = false, shard: ReplayShard? = nil
    ) throws(LogError) -> [SessionReplay] {
        let reader = try LogReader(path: path)
        let sessions: [SessionSummary]
        if let selector {
            sessions = [try reader.session(selector)]
        } else {
            sessions = try reader.sessions()
        }
        var results: [SessionReplay] = []
        for session in sessions where shard?.contains(session, ofLogAt: path) ?? true {
            let start = ContinuousClock.now
            var result = try replay(session, of: reader, keepingStates: keepingStates)
            result.duration = start.duration(to: .now)
            results.append(result)
        }
        return results
    }

    /// Replays each session and, where the replay diverged or the recording is in an older
    /// schema, rewrites its recorded states from the replay; the actions stay. A session that
    /// cannot be replayed, or is nondeterministic, is left as it is.
    ///
    /// - Returns: each session's replay and whether it was rewritten.
    public func update(path: String, session selector: String? = nil) throws(LogError) -> [(replay: SessionReplay, rewritten: Bool)] {
        // A writing command: a file a writer would refuse is refused before anything runs.
        try SQLiteSink.checkBeforeWriting(path)
        let replays = try replay(path: path, session: selector, keepingStates: true)
        var results: [(SessionReplay, Bool)] = []
        for replay in replays {
            guard let states = replay.replayedStates, let flow = registry[replay.session.flow] else { continue }
            var rewrite = replay.session.schemaVersion < flow.schemaVersion
            switch replay.outcome {
            case .matched: break
            case .diverged: rewrite = true
            case .nondeterministic, .readsClock, .refused: rewrite = false
            }
            if rewrite {
                try LogRewriter(path: path).rewrite(
                    session: replay.session, initialState: states.initial, states: states.steps,
                    actions: replay.migratedActions, schemaVersion: flow.schemaVersion
                )
            }
            results.append((replay, rewrite))
        }
        return results
    }

    func replay(_ session: SessionSummary, of reader: LogReader, keepingStates: Bool) throws(LogError) -> SessionReplay {
        guard let flow = registry[session.flow] else {
            throw LogError(
                .invalidArgument, path: reader.path, session: session.number,
                "session \(session.label) is of flow '\(session.flow)', which is not registered (known: \(registry.names.joined(separator: ", ")))"
            )
        }
        guard session.schemaVersion <= flow.schemaVersion else {
            return SessionReplay(
                log: reader.path, session: session,
                outcome: .refused(
                    step: 0, reason: "recorded with schema version \(session.schemaVersion), newer than flow \(flow.name)'s \(flow.schemaVersion)"),
                replayedSteps: 0, redactedSteps: 0, unverifiableSteps: [], replayedStates: nil, migratedActions: nil
            )
        }
        var run = ReplayRun(flow: flow, session: session, keepingStates: keepingStates)
        do {
            try run.start(from: try reader.state(of: session, at: 0))
            if run.isMigrating || keepingStates {
                try reader.walk(session, steps: 1...max(1, session.lastStep)) { event, before, after in
                    if !run.isFinished {
                        try run.step(event.step, event.actionName, event.origin, event.action, event.digest, outputs: event.outputs) { (before, after) }
                    }
                }
            } else if !run.isFinished, ChunkedVerification.applies(to: session, flow: flow),
                let redacted = ChunkedVerification(path: reader.path, session: session, flow: flow).redactedStepsIfEveryStepMatches()
            {
                run.finishMatched(steps: session.lastStep, redactedSteps: redacted)
            } else {
                // States are rebuilt only for a step that does not match.
                try reader.actions(of: session) { recorded, state in
                    try run.step(recorded.step, recorded.actionName, recorded.origin, recorded.action, recorded.digest) {
                        (try state(recorded.step - 1), try state(recorded.step))
                    }
                    return !run.isFinished
                }
            }
        } catch let error as LogError {
            throw error
        } catch {
            // A recorded value the log gave back but that does not hold together, such as a
            // patch that does not apply to the state before it.
            throw LogError.damage(in: reader.path, "\(error)", session: session.number, underlying: error)
        }
        return run.result(log: reader.path)
    }
}
