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
        guard let parsedPath else { return StepView(session: session, step: step, event: event, value: state, path: nil) }
        let matches = state.matches(of: parsedPath)
        if parsedPath.hasWildcard {
            var view = StepView(session: session, step: step, event: event, value: .array(matches.map(\.value)), path: parsedPath)
            view.matches = matches
            return view
        }
        guard matches.count <= 1 else {
            throw LogError(
                .ambiguousValue, path: self.path, session: session.number, step: step,
                "\(parsedPath) names \(matches.count) elements in step \(step) of session \(session.label): their id is not unique; name one by index, or all with [*]"
            )
        }
        guard let found = matches.first else {
            throw LogError(
                .noSuchValue, path: self.path, session: session.number, step: step,
                "no value at \(parsedPath) in step \(step) of session \(session.label)"
            )
        }
        return StepView(session: session, step: step, event: event, value: found.value, path: parsedPath)
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
