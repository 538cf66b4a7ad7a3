import Foundation
import RewindLog
import RewindReplay

/// The child's side of `minimize --crash`: replays the steps a file names and says, before
/// each, which one it starts, so that when the reducer stops the program the parent knows
/// where.
enum CrashAttempt {
    /// Replays the user's steps listed in the file at `keeping` (comma-separated step numbers)
    /// with what they caused; exits normally when no step stops it.
    static func run(log: String, session: String?, keeping: String, through: Int?) throws {
        let actions = try RecordedActions(log: log, session: session, registry: CommandContext.current.flows, through: through)
        let text = try String(contentsOfFile: keeping, encoding: .utf8)
        let users = Set(text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        var stepper = actions.flow.stepper(digestRule: actions.session.digestRule)
        try stepper.reset(to: actions.initialState)
        let output = FileHandle.standardOutput
        for (index, step) in actions.keeping(users: users).enumerated() {
            // Written unbuffered: a trap loses whatever a buffer holds.
            output.write(Data("\(index)\n".utf8))
            _ = try stepper.step(step.action)
        }
    }
}
