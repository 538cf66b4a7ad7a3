import Foundation
import RewindInspector
import RewindRendering

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process's standard output is connected to.
enum Terminal {
    /// Colour on a terminal, unless `NO_COLOR` is set (https://no-color.org).
    static var style: TextStyle {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return isatty(STDOUT_FILENO) == 1 && !noColor ? .ansi : .plain
    }

    /// The terminal's size in characters; nil when standard output is not a terminal.
    static var size: (rows: Int, columns: Int)? {
        var window = winsize()
        let known = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0 && window.ws_row > 0 && window.ws_col > 0
        return known ? (rows: Int(window.ws_row), columns: Int(window.ws_col)) : nil
    }
}

extension Terminal {
    /// How the user runs this command: `swift run NAME` when the executable sits in a
    /// package's `.build` folder (it is not on the PATH then), else `NAME`.
    ///
    /// The path may be relative (`.build/release/rewind demo`), so `.build` is looked for
    /// among its components, not after a slash.
    static func invocation(of commandName: String, executable: String = CommandLine.arguments.first ?? "") -> String {
        executable.split(separator: "/").contains(".build") ? "swift run \(commandName)" : commandName
    }
}
