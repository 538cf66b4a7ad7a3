import Foundation
import RewindCore
import RewindJSON
import RewindLog

extension RecordedActions {
    /// Adds `steps`, with `states` after them, to the log at `path` (created if missing) as a
    /// new session called `name`, and returns its number.
    ///
    /// Steps are renumbered from 1 and cause links follow them; times, outputs, effects and the
    /// initial state are the recording's; names and origins are what the current types give the
    /// actions, and the schema version is the flow's.
    public func writeSession(named name: String, steps: [Step], states: [JSONValue], to path: String) throws -> Int {
        precondition(states.count == steps.count, "one state per step")
        let sink = try SQLiteSink(path: path)
        defer { try? sink.close() }
        let recordsEffects = steps.allSatisfy { $0.effects != nil }
        // The digests of the format the session is written in, taken anew.
        let rule = SessionHeader.digestRule(recordingEffects: recordsEffects)
        let number = try sink.beginSession(
            SessionHeader(
                name: name, flow: session.flow, startedAt: session.startedAt, schemaVersion: flow.schemaVersion,
                initialState: initialState, initialDigest: initialState.digest(by: rule), redactedPaths: Set(session.redactedPaths),
                // A new session, of the same app and build as the one it shortens.
                id: UUID(), metadata: session.metadata ?? SessionMetadata(), recordsEffects: recordsEffects))
        let stepper = flow.stepper(digestRule: rule)
        var renumbered: [Int: Int] = [:]
        var events: [RecordedEvent] = []
        var previous = initialState
        // Stored as the recorder stores steps.
        var keyframes = RecorderConfiguration().keyframes
        for (index, (step, state)) in zip(steps, states).enumerated() {
            renumbered[step.step] = index + 1
            let description = try stepper.describe(step.action)
            events.append(
                RecordedEvent(
                    step: index + 1, time: step.time, origin: description.origin, actionName: description.name, action: step.action,
                    cause: step.cause.flatMap { renumbered[$0] }, outputs: step.outputs, effects: step.effects, digest: state.digest(by: rule),
                    state: keyframes.record(of: state, at: index + 1, after: previous, followingStoredStep: index > 0)))
            previous = state
        }
        try sink.append(events, gaps: [], redactedPaths: [], to: number)
        try sink.endSession(number)
        return number
    }
}
