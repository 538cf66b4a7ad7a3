import Foundation
import RewindCore
import RewindReplay

/// The command line that is running, for the commands to read: argument-parser builds each
/// command from its type, so what an app registers reaches the commands through here.
enum CommandContext {
    private static let lock = NSLock()
    // Read and written only under `lock`.
    nonisolated(unsafe) private static var installed: RewindCommandLine?

    /// Makes `commandLine` the one every command reads, before parsing starts.
    static func install(_ commandLine: RewindCommandLine) {
        lock.lock()
        installed = commandLine
        lock.unlock()
    }

    /// The running command line; a bare one with no flows if none was installed (as when
    /// argument-parser asks a command for its help alone).
    static var current: RewindCommandLine {
        lock.lock()
        let commandLine = installed
        lock.unlock()
        return commandLine ?? RewindCommandLine(commandName: "rewind", flows: ReplayRegistry())
    }
}
