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
    /// How the user runs this command: `NAME` when the `NAME` that PATH finds is this very
    /// executable (a link to it counts), else `swift run NAME`. Where a package was built
    /// (`.build`, or any `--scratch-path`) says nothing about PATH: a `rewind` built with
    /// `--scratch-path /tmp/x` is on no PATH, and printing `rewind …` would fail with 127.
    static func invocation(
        of commandName: String,
        executable: String = Bundle.main.executablePath ?? CommandLine.arguments.first ?? "",
        path: String = ProcessInfo.processInfo.environment["PATH"] ?? ""
    ) -> String {
        let this = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let onPath = path.split(separator: ":").lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent(commandName).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let found = onPath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        return found == this ? commandName : "swift run \(commandName)"
    }
}
