import RewindJSON
import RewindLog

extension LogInspector {
    /// The action and state at `step`, or the value at `path` in that state.
    ///
    /// A negative `step` counts back from the last (-1 is the last step).
    public func show(_ session: SessionSummary, step requested: Int, path: String?) throws(LogError) -> StepView {
        let step = try reader.resolveStep(requested, in: session)
        let parsedPath = try path.map { text throws(LogError) in try Self.parsePath(text) }
        let state = try reader.state(of: session, at: step)
        let event = step == 0 ? nil : try reader.events(of: session, steps: step...step).first
        var value = state
        if let parsedPath {
            guard let found = state[parsedPath] else {
                throw LogError(
                    .noSuchValue, path: self.path, session: session.number, step: step,
                    "no value at \(parsedPath) in step \(step) of session \(session.label)"
                )
            }
            value = found
        }
        return StepView(session: session, step: step, event: event, value: value, path: parsedPath)
    }

    /// Reads a path like `photos[3].title`; a malformed one is a usage error.
    public static func parsePath(_ text: String) throws(LogError) -> JSONPath {
        do {
            return try JSONPath(parsing: text)
        } catch {
            throw LogError(.invalidArgument, "\(error)", underlying: error)
        }
    }
}
