#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal settings to put back, for the signal handlers, which cannot capture context.
/// Written once by ``RawTerminal/enable()`` before the handlers are installed, then only read.
nonisolated(unsafe) private var savedSettings = termios()

/// Standard input's terminal switched to raw mode: each key arrives at once, unechoed, and
/// Ctrl-C arrives as a byte instead of a signal.
///
/// The previous settings come back through ``restore()`` (on quit and at the end of input),
/// and through a handler when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrives from outside: the
/// handler restores the terminal, then lets the signal end the process as it would have.
enum RawTerminal {
    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Switches to raw mode; false, changing nothing, when standard input is not a terminal
    /// whose settings can be read and written.
    static func enable() -> Bool {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        savedSettings = settings
        for number in signals {
            signal(number, restoreAndReraise)
        }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        // Output processing stays on, so that "\n" still starts a new line.
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            restoreSignals()
            return false
        }
        return true
    }

    /// Puts the terminal's previous settings back and the signals' default handling.
    static func restore() {
        var settings = savedSettings
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        restoreSignals()
    }

    private static func restoreSignals() {
        for number in signals {
            signal(number, SIG_DFL)
        }
    }
}

/// Restores the terminal, then raises `number` again with its default handling, so that the
/// process ends as the signal asked. Calls only async-signal-safe functions.
private func restoreAndReraise(_ number: Int32) {
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
    // Ends the screen's last line, so that the shell's next words start on a line of their own.
    var newline = UInt8(ascii: "\n")
    _ = write(STDOUT_FILENO, &newline, 1)
    signal(number, SIG_DFL)
    raise(number)
}
