import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal `todo-tui` runs in: raw keys in, whole screens out, on the alternate screen,
/// and the terminal as it was once the app ends.
final class Terminal: Sendable {
    /// A key, as the screen understands it.
    enum Key: Equatable, Sendable {
        case character(Character)
        case up, down, enter, escape, backspace
        /// Ctrl-C: raw mode takes the terminal's own signal keys away, so the app quits on it.
        case interrupt
    }

    struct NotATerminal: Error, CustomStringConvertible {
        var description: String { "standard input is not a terminal: run todo-tui in one (a tmux pane will do)" }
    }

    private let original: termios

    /// Puts the terminal in raw mode (no echo, no line editing, no signal keys) on the
    /// alternate screen, with the cursor hidden.
    init() throws {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { throw NotATerminal() }
        original = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        output("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// The terminal as it was: main screen, cursor shown, line editing back.
    func restore() {
        output("\u{1B}[?25h\u{1B}[?1049l")
        var settings = original
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// Draws `lines` over the whole screen.
    func draw(_ lines: [String]) {
        output("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"))
    }

    /// Writes all of `text`, or as much as the terminal takes before it goes away.
    private func output(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written) }
            if count <= 0 { return }
            written += count
        }
    }

    /// Reads keys on a thread of their own, for ever, and hands each to `handle` on the main
    /// queue, in order. A read of standard input that ends (the terminal gone) hands over
    /// `.interrupt`.
    func readKeys(_ handle: @escaping @MainActor @Sendable (Key) -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            var pending: [UInt8] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count <= 0 {
                    DispatchQueue.main.async { MainActor.assumeIsolated { handle(.interrupt) } }
                    return
                }
                pending += buffer[0..<count]
                let keys = Self.keys(in: &pending)
                DispatchQueue.main.async { MainActor.assumeIsolated { for key in keys { handle(key) } } }
            }
        }
        thread.start()
    }

    /// The keys `bytes` begins with; a character cut in two by a read stays in `bytes`.
    static func keys(in bytes: inout [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                    switch bytes[index + 2] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    default: break
                    }
                    index += 3
                } else {
                    keys.append(.escape)
                    index += 1
                }
                continue
            case 0x03: keys.append(.interrupt)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case ..<0x20: break
            default:
                // A UTF-8 sequence: its length from the lead byte; wait for the rest if a read cut it.
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard index + length <= bytes.count else {
                    bytes.removeFirst(index)
                    return keys
                }
                let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
                keys += text.map(Key.character)
                index += length
                continue
            }
            index += 1
        }
        bytes.removeAll()
        return keys
    }
}
