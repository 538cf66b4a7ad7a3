import RewindCore
import RewindJSON
import RewindLog
import RewindRendering
import RewindReplay

/// The interpreter behind `rewind step`: runs commands against a ``TimeTravelCursor`` and
/// returns what to print, without touching a terminal.
///
/// A command that cannot run (a bad line, a step out of range, a path with nothing at it, a
/// log that cannot give a step back) answers with a one-line message and leaves the cursor
/// where it was: a session never ends on an error, only on ``CursorCommand/quit``. What it
/// answers is for a terminal: the recorded strings it quotes are escaped (``TerminalText``).
public struct StepSession: Sendable {
    public private(set) var cursor: TimeTravelCursor
    public var style: TextStyle
    /// The terminal's width, which the action line fills; nil off a terminal.
    public var columns: Int?
    /// The session's flow, whose current reducer `rerun` runs; nil when it is not registered.
    public let flow: ReplayFlow?
    /// What `rerun` says when there is no flow.
    let missingFlow: String
    /// With `--follow`: what brings the steps recorded since the session started.
    private var follower: LogFollower?

    /// - Parameters:
    ///   - flow: the session's flow, for `rerun`.
    ///   - missingFlow: what `rerun` answers without one, such as how to register it.
    ///   - follower: to follow a session being recorded: each command first takes the steps
    ///     recorded since the last (``catchUp()``).
    package init(
        cursor: TimeTravelCursor, style: TextStyle = .plain, flow: ReplayFlow? = nil, missingFlow: String? = nil, follower: LogFollower? = nil
    ) {
        self.cursor = cursor
        self.style = style
        self.flow = flow
        self.follower = follower
        self.missingFlow = missingFlow ?? "no reducer is registered for flow '\(cursor.session.flow)', so rerun cannot run it"
    }

    /// The view of the current step (see ``CursorView``).
    public func view() -> [String] {
        CursorView(style: style, columns: columns).lines(of: cursor)
    }

    /// With a follower, takes the steps recorded since the last look; true when the session
    /// grew or ended, so that a screen showing it is redrawn. Costs one pragma when nothing
    /// was committed.
    @discardableResult
    public mutating func catchUp() throws(LogError) -> Bool {
        guard var follower else { return false }
        defer { self.follower = follower }
        let before = cursor.session
        cursor.grow(to: try follower.refresh(before))
        return cursor.session != before
    }

    /// Runs the command on `line`; a blank line does nothing.
    public mutating func run(_ line: String) -> StepReply {
        var reply: StepReply
        do {
            guard let command = try CursorCommand.parse(line) else { return StepReply() }
            // A log that cannot say what is new is said, but the command runs (and quit quits).
            var notice: [String] = []
            do { try catchUp() } catch { notice = [TerminalText.escaped(error.description)] }
            reply = perform(command)
            reply.lines = notice + reply.lines
        } catch {
            reply = StepReply(lines: [TerminalText.escaped(error.description)])
        }
        return reply
    }

    /// Runs `command`.
    public mutating func perform(_ command: CursorCommand) -> StepReply {
        do {
            return try reply(to: command)
        } catch {
            return StepReply(lines: [TerminalText.escaped(error.description)])
        }
    }

    private mutating func reply(to command: CursorCommand) throws(LogError) -> StepReply {
        switch command {
        case .next:
            guard cursor.next() else { return StepReply(lines: ["already at the last step, \(cursor.step); nothing after it"]) }
            return moved()
        case .back:
            guard cursor.back() else { return StepReply(lines: ["already at step 0, the initial state; nothing before it"]) }
            return moved()
        case let .jump(requested):
            // A negative step counts back from the last, as on the command line.
            let target = requested < 0 ? cursor.lastStep + 1 + requested : requested
            guard cursor.steps.contains(target) else { return StepReply(lines: [outOfRange(requested)]) }
            try cursor.jump(to: target)
            return moved()
        case .first:
            cursor.first()
            return moved()
        case .last:
            cursor.last()
            return moved()
        case let .show(path):
            return StepReply(lines: try show(path))
        case let .diff(other):
            return StepReply(lines: try diff(from: other))
        case let .find(glob):
            guard try cursor.find(glob) else {
                return StepReply(lines: [
                    "no step after \(cursor.step) has an action matching \(TerminalText.escaped("\(glob)")) (the search does not wrap around)"
                ])
            }
            return moved()
        case .rerun:
            return StepReply(lines: try rerun())
        case .help:
            return StepReply(lines: CursorCommand.helpLines)
        case .quit:
            return StepReply(quits: true)
        }
    }

    private func moved() -> StepReply {
        StepReply(view: view())
    }

    private func outOfRange(_ step: Int) -> String {
        "no step \(step): session \(TerminalText.escaped(cursor.session.label)) has steps 0 through \(cursor.lastStep)"
    }

    /// The whole state, or `path: value` with the value pretty-printed.
    private func show(_ path: JSONPath?) throws(LogError) -> [String] {
        let printer = PrettyPrinter(style: style)
        guard let path else { return printer.lines(try cursor.state()) }
        guard let value = try cursor.value(at: path) else {
            return ["nothing at \(TerminalText.escaped(path.description)) in the state at step \(cursor.step)"]
        }
        var lines = printer.lines(value)
        lines[0] = style.path(path) + ": " + lines[0]
        return lines
    }

    /// What the current reducer makes of this step, against the recording.
    private func rerun() throws(LogError) -> [String] {
        guard let flow else { return [TerminalText.escaped(missingFlow)] }
        let step = cursor.step
        switch try cursor.rerun(with: flow) {
        case nil:
            return ["step 0 is the initial state; there is no action to run"]
        case .agrees?:
            return ["step \(step): the current reducer gives the recorded state"]
        case let .differs(changes)?:
            return ["step \(step): the current reducer gives another state; recorded → now:"] + DiffRenderer(style: style).render(changes).map { "  " + $0 }
        case .readsSecret?:
            return ["step \(step): the current reducer reads a redacted secret's characters, which the log does not keep, so this step cannot be checked"]
        case let .cannotRun(reason)?:
            return ["step \(step): cannot run it: \(TerminalText.escaped(reason))"]
        }
    }

    /// A heading `changes from step 7 to step 8:` and the changes, indented.
    private func diff(from other: Int?) throws(LogError) -> [String] {
        let from: Int
        if let other {
            guard cursor.steps.contains(other) else { return [outOfRange(other)] }
            from = other
        } else {
            guard cursor.step > 0 else { return ["step 0 is the initial state; there is no step before it to diff against"] }
            from = cursor.step - 1
        }
        let changes = try cursor.diff(from: from)
        return ["changes from step \(from) to step \(cursor.step):"] + DiffRenderer(style: style).render(changes).map { "  " + $0 }
    }
}
