import RewindJSON
import RewindLog

extension LogInspector {
    /// Every step of `session` that changed the value at `path`, with the value before and
    /// after; a value appearing or disappearing is a change.
    ///
    /// Throws a bad request when the path holds a value at no step of the session, which is
    /// most often a misspelt path.
    public func history(of path: JSONPath, in session: SessionSummary) throws(LogError) -> ValueHistory {
        let initial = try reader.state(of: session, at: 0)[path]
        var everPresent = initial != nil
        var changes: [ValueHistory.Change] = []
        try reader.walk(session, steps: 1...max(1, session.lastStep)) { event, before, after in
            let old = before[path], new = after[path]
            everPresent = everPresent || new != nil
            guard old != new else { return }
            changes.append(ValueHistory.Change(step: event.step, origin: event.origin, action: event.actionName, old: old, new: new))
        }
        guard everPresent else {
            throw LogError(
                .noSuchValue, path: self.path, session: session.number,
                "the path \(path) holds no value at any step of session \(session.label)"
            )
        }
        return ValueHistory(session: session, path: path, initial: initial, changes: changes)
    }
}
