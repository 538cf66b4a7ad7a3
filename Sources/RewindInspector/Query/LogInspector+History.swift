import RewindJSON
import RewindLog

extension LogInspector {
    /// Every step of `session` that changed the value at `path`, with the value before and
    /// after; a value appearing or disappearing is a change.
    ///
    /// An id in the path follows its element across moves; `[*]` follows each place it names,
    /// so one step may change several. Throws a bad request when the path holds a value at no
    /// step of the session, which is most often a misspelt path, and an ambiguous value when an
    /// id that must name one element names several.
    public func history(of path: JSONPath, in session: SessionSummary) throws(LogError) -> ValueHistory {
        let places = PlaceReader(path: path)
        // A trimmed session's history starts from its first kept state.
        let start = session.firstKeptState
        let initialState = try reader.state(of: session, at: start)
        let initial = places.matches(in: initialState)
        var everPresent = !initial.isEmpty
        var changes: [ValueHistory.Change] = []
        var ambiguity: (step: Int, count: Int)?
        if let count = places.ambiguity(in: initialState) { ambiguity = (start, count) }
        // Only the values at the path are kept from step to step, not the state before: each
        // patch is then applied in place.
        var previous = initial
        try reader.walkStates(session, steps: (start + 1)...max(start + 1, session.lastStep), parsingActions: false) { event, after in
            guard ambiguity == nil else { return }
            if let count = places.ambiguity(in: after) {
                ambiguity = (event.step, count)
                return
            }
            let current = places.matches(in: after)
            defer { previous = current }
            for change in places.changes(from: previous, to: current) {
                everPresent = everPresent || change.new != nil
                changes.append(
                    ValueHistory.Change(step: event.step, origin: event.origin, action: event.actionName, path: change.path, old: change.old, new: change.new))
            }
        }
        if let ambiguity {
            throw LogError(
                .ambiguousValue, path: self.path, session: session.number, step: ambiguity.step,
                "\(path) names \(ambiguity.count) elements at step \(ambiguity.step) of session \(session.label): their id is not unique; follow one by index, or all with [*]"
            )
        }
        guard everPresent else {
            var message = "the path \(path) holds no value at any step of session \(session.label)"
            if let hint = try quotingHint(for: path, in: session) { message += "; " + hint }
            throw LogError(.noSuchValue, path: self.path, session: session.number, message)
        }
        return ValueHistory(session: session, path: path, initial: initial, changes: changes)
    }

    /// When `path` picks an element by an unquoted id (`items[id=2]`, a number) from a list
    /// whose elements have string ids (UUIDs, say), which an unquoted id never equals: the
    /// hint to quote it. Read only once the path has matched nothing, so it costs a second
    /// walk of the session on that error alone.
    private func quotingHint(for path: JSONPath, in session: SessionSummary) throws(LogError) -> String? {
        let position = path.components.firstIndex { component in
            guard case .id(let id) = component else { return false }
            if case .string = id { return false }
            return true
        }
        guard let position, case .id(let id) = path.components[position] else { return nil }
        let list = JSONPath(Array(path.components[..<position]))
        func holdsStringIDs(_ state: JSONValue) -> Bool {
            state.matches(of: list).contains { match in
                guard case .array(let elements) = match.value else { return false }
                return elements.contains { element in
                    if case .string? = JSONIdentity.id(of: element) { true } else { false }
                }
            }
        }
        let start = session.firstKeptState
        var found = holdsStringIDs(try reader.state(of: session, at: start))
        if !found {
            try reader.walkStates(session, steps: (start + 1)...max(start + 1, session.lastStep), parsingActions: false) { _, state in
                found = found || holdsStringIDs(state)
            }
        }
        guard found else { return nil }
        var quoted = path
        quoted.components[position] = .id(.string(id.description))
        return "the elements of \(list) have string ids: quote the id, as in \(quoted)"
    }
}

/// The places a history follows, read from one state at a time.
private struct PlaceReader {
    let path: JSONPath
    /// Whether the path names one position, read with the subscript alone: the common case,
    /// kept as cheap as it was.
    let isPositional: Bool

    init(path: JSONPath) {
        self.path = path
        isPositional = path.isPositional
    }

    func matches(in state: JSONValue) -> [JSONPathMatch] {
        if isPositional { return state[path].map { [JSONPathMatch(path: path, value: $0)] } ?? [] }
        return state.matches(of: path)
    }

    /// How many elements an id of a path without `[*]` names, when more than one.
    func ambiguity(in state: JSONValue) -> Int? {
        guard !isPositional, !path.hasWildcard else { return nil }
        let count = state.matches(of: path).count
        return count > 1 ? count : nil
    }

    /// The places whose value differs between the matches of two states (``matches(in:)``),
    /// in document order of `new`, then those gone from it.
    func changes(from old: [JSONPathMatch], to new: [JSONPathMatch]) -> [(path: JSONPath, old: JSONValue?, new: JSONValue?)] {
        if !path.hasWildcard {
            let oldValue = old.first?.value
            let newValue = new.first?.value
            return oldValue == newValue ? [] : [(path, oldValue, newValue)]
        }
        var oldValues: [JSONPath: JSONValue] = [:]
        for match in old { oldValues[match.path] = match.value }
        var changes: [(path: JSONPath, old: JSONValue?, new: JSONValue?)] = []
        var seen = Set<JSONPath>()
        for match in new {
            seen.insert(match.path)
            let previous = oldValues[match.path]
            if previous != match.value { changes.append((match.path, previous, match.value)) }
        }
        for match in old where !seen.contains(match.path) {
            changes.append((match.path, match.value, nil))
        }
        return changes
    }
}
