import Foundation
import RewindCore
import RewindReplay

/// The command line that is running, for the commands to read: argument-parser builds each
/// command from its type, so what an app registers reaches the commands through here.
///
/// A task-local value, not a global: two command lines that run at once in one process (an
/// app's tests run its own beside a planted one) each read their own. As a global, the last
/// one started won, and a planted registry's replay ran the app's clean reducers (seen in CI).
enum CommandContext {
    /// The command line whose ``RewindCommandLine/run(_:)`` this task is in.
    @TaskLocal static var installed: RewindCommandLine?

    /// The running command line; a bare one with no flows outside one's run (as when
    /// argument-parser asks a command for its help alone).
    static var current: RewindCommandLine {
        installed ?? RewindCommandLine(commandName: "rewind", flows: ReplayRegistry())
    }
}
