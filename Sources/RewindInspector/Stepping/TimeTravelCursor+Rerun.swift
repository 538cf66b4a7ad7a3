import RewindCore
import RewindJSON
import RewindLog
import RewindReplay

extension TimeTravelCursor {
    /// What the current reducer makes of the current step.
    public enum Rerun: Sendable, Equatable {
        /// It gives the recorded state.
        case agrees
        /// It gives another state: the changes from the recorded state to the new one.
        case differs([JSONChange])
        /// The step's action reads a redacted secret's characters, which the log does not
        /// keep: the step cannot be checked.
        case readsSecret
        /// The recorded values no longer decode, or a migration failed.
        case cannotRun(String)
    }

    /// Runs the current step's recorded action through `flow`'s current reducer, from the
    /// recorded state before it, and compares the outcome with the recorded state after it:
    /// does today's code still do what the recording says, at this step?
    ///
    /// Effects are not run; nothing is written. At step 0 there is no action to run.
    public func rerun(with flow: ReplayFlow) throws(LogError) -> Rerun? {
        guard step > 0 else { return nil }
        guard let event = try inspector.reader.events(of: session, steps: step...step).first else {
            throw LogError.stepNotRecorded(step, of: session, in: inspector.path)
        }
        var before = try inspector.reader.state(of: session, at: step - 1)
        var after = try state()
        var action = event.action
        do {
            try flow.migrate(&before, isAction: false, from: session.schemaVersion)
            try flow.migrate(&after, isAction: false, from: session.schemaVersion)
            try flow.migrate(&action, isAction: true, from: session.schemaVersion)
        } catch {
            return .cannotRun("the migration from schema version \(session.schemaVersion) failed: \(error)")
        }
        do throws(ReplayError) {
            let trial = try flow.stepper(digestRule: session.digestRule).trial(from: before, action: action)
            if trial.state == after { return .agrees }
            if trial.readSecret { return .readsSecret }
            return .differs(JSONDiff.changes(from: after, to: trial.state))
        } catch {
            return .cannotRun(error.description)
        }
    }
}
