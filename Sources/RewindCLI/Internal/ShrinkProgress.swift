import Foundation
import RewindRendering

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `minimize`'s progress on one line of standard error, redrawn in place, when standard error
/// is a terminal: a search may take many replays. Elsewhere (a pipe, CI's log) it says nothing.
final class ShrinkProgress {
    private let session: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(session: String) {
        self.session = TerminalText.escaped(session)
    }

    /// Redraws the line at most ten times a second.
    func update(steps: Int, replays: Int) {
        guard isTerminal, Date().timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = Date()
        drawn = true
        FileHandle.standardError.write(Data("\r\u{1B}[2Kminimizing \(session): \(steps) steps, \(replays) replays".utf8))
    }

    /// Clears the line, if one was drawn.
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
