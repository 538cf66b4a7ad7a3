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
            case .diverged, .behaviourChanged: rewrite = true
            case .nondeterministic, .readsClock, .refused: rewrite = false
            }
            if rewrite, let text = replay.session.notKeptText {
                // Its initial state and first steps are gone: there is no whole session to write.
                throw LogError(
                    .invalidArgument, path: path, session: replay.session.number,
                    "session \(replay.session.label) is trimmed (\(text)): --update rewrites whole sessions only")
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
        // A trimmed session replays from its first kept state, the keyframe after its front.
        let start = session.firstKeptState
        do {
            try run.start(from: try reader.state(of: session, at: start))
            if run.isMigrating || keepingStates {
                var expected = start + 1
                try reader.walk(session, steps: (start + 1)...max(start + 1, session.lastStep)) { event, before, after in
                    guard !run.isFinished else { return }
                    defer { expected = event.step + 1 }
                    guard event.step == expected else {
                        // After a gap the recorder stored the whole state: the replay goes on from it.
                        return try run.resume(at: event.step, from: after, action: event.action, behaviour: event.behaviour)
                    }
                    try run.step(event.step, event.actionName, event.origin, event.action, event.digest, behaviour: event.behaviour) {
                        (before, after)
                    }
                }
            } else if !run.isFinished, ChunkedVerification.applies(to: session, flow: flow),
                let redacted = ChunkedVerification(path: reader.path, session: session, flow: flow).redactedStepsIfEveryStepMatches()
            {
                run.finishMatched(steps: session.lastStep - start, redactedSteps: redacted)
            } else {
                // States are rebuilt only for a step that does not match.
                var expected = start + 1
                try reader.actions(of: session) { recorded, state in
                    guard recorded.step > start else { return true }
                    defer { expected = recorded.step + 1 }
                    guard recorded.step == expected else {
                        try run.resume(at: recorded.step, from: try state(recorded.step), behaviour: recorded.behaviour)
                        return !run.isFinished
                    }
                    try run.step(recorded.step, recorded.actionName, recorded.origin, recorded.action, recorded.digest, behaviour: recorded.behaviour) {
                        (try state(recorded.step - 1), try state(recorded.step))
                    }
                    return !run.isFinished
                }
            }
            if let step = run.unnamedOutcomeStep, let event = try reader.events(of: session, steps: step...step).first {
                run.nameOutcome(action: event.actionName, origin: event.origin)
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
