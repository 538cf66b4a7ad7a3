import RewindJSON

/// One command of `rewind step`, read from a line such as `jump 8`, `show login.username` or
/// `find didTap*`.
public enum CursorCommand: Sendable, Equatable {
    /// `next`, `n`: the next step.
    case next
    /// `back`, `b`: the previous step.
    case back
    /// `jump N`, `j N`: step N.
    case jump(Int)
    /// `first`: step 0, the initial state.
    case first
    /// `last`: the last step.
    case last
    /// `show`: the whole state; `show PATH`: the value at a path.
    case show(JSONPath?)
    /// `diff N`: the changes from step N to the current step; `diff`: from the previous step.
    case diff(Int?)
    /// `find GLOB`: the next step whose action name matches.
    case find(ActionGlob)
    /// `rerun`, `r`: the step's action through the current reducer, against the recording.
    case rerun
    /// `help`, `?`: the commands.
    case help
    /// `quit`, `q`: the end of the session.
    case quit

    /// The command a line names, or nil for a blank line.
    ///
    /// Surrounding spaces are ignored and the command's name may be in any case; its argument
    /// is the rest of the line.
    public static func parse(_ line: String) throws(CursorCommandError) -> CursorCommand? {
        let text = line.trimmingSpaces
        guard !text.isEmpty else { return nil }
        let name = String(text.prefix { !$0.isWhitespace })
        let argument = String(text.dropFirst(name.count)).trimmingSpaces
        switch name.lowercased() {
        case "next", "n": return try bare(.next, name, argument)
        case "back", "b": return try bare(.back, name, argument)
        case "first": return try bare(.first, name, argument)
        case "last": return try bare(.last, name, argument)
        case "rerun", "r": return try bare(.rerun, name, argument)
        case "help", "?": return try bare(.help, name, argument)
        case "quit", "q": return try bare(.quit, name, argument)
        case "jump", "j":
            guard let target = Int(argument) else {
                throw CursorCommandError(argument.isEmpty ? "\(name) needs a step number, like: jump 8" : "\(name): '\(argument)' is not a step number")
            }
            return .jump(target)
        case "show":
            guard !argument.isEmpty else { return .show(nil) }
            do {
                return .show(try JSONPath(parsing: argument))
            } catch {
                throw CursorCommandError(error.description)
            }
        case "diff":
            guard !argument.isEmpty else { return .diff(nil) }
            guard let other = Int(argument) else { throw CursorCommandError("diff: '\(argument)' is not a step number") }
            return .diff(other)
        case "find":
            guard !argument.isEmpty else { throw CursorCommandError("find needs a pattern, like: find didTap*") }
            return .find(ActionGlob(argument))
        default:
            throw CursorCommandError("unknown command '\(name)'; type help for the commands")
        }
    }

    private static func bare(_ command: CursorCommand, _ name: String, _ argument: String) throws(CursorCommandError) -> CursorCommand {
        guard argument.isEmpty else { throw CursorCommandError("\(name) takes no argument") }
        return command
    }

    /// What `help` prints: one line per command.
    public static let helpLines = [
        "next, n          the next step",
        "back, b          the previous step",
        "jump N, j N      step N (0 is the initial state, -1 the last)",
        "first, last      step 0, the last step",
        "show             the whole state",
        "show PATH        the value at PATH, like login.username or photos[2].title",
        "diff [N]         the changes from step N (default: the previous step) to this one",
        "find GLOB        the next step whose action matches, like didTap* (no wrap-around)",
        "rerun, r         run this step's action through the current reducer and compare",
        "help, ?          this list",
        "quit, q          the end (so does the end of input)",
    ]
}
