import ArgumentParser
import Foundation
import RewindInspector
import RewindLive
import RewindLog
import RewindTeamStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rewind step`: moves through a session one step at a time, forwards and backwards.
///
/// The interpreter is ``StepSession`` in the inspector library; this command only connects
/// it to standard input and output: command lines from a pipe, single keys on a terminal.
struct StepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "step",
        abstract: "Step through a session's actions and states, forwards and backwards.",
        discussion: """
            Shows one step of a session: its action and what it changed. On a terminal, keys \
            move at once: → or n next, ← or b back, Home or g first, End or G last, s show the \
            state, d diff against the previous step, r rerun the step with the current reducer, \
            / find, j jump, ? keys, q quit. Otherwise it reads commands, one per line, from \
            standard input: next, back, jump N, first, last, show [PATH], diff [N], find GLOB, \
            rerun, help, quit. The end of input quits. With --follow the steps recorded after \
            it started can be reached too (without --session, in the newest session), and a \
            terminal's screen shows them as they come. With --live URL, the log is the one a \
            `rewind live` inspector keeps, and the app that records the session goes where the \
            steps are: t travel to the step shown, c resume, x skip it, X unskip it, a \
            dispatch an action (the lines travel [N], resume, skip [N], unskip [N], dispatch \
            JSON). See docs/cli/step.md.

            Examples:
              rewind step demo.rewind --session login-happy --at 5
              printf 'jump 8\\ndiff 7\\nfind didTap*\\n' | rewind step demo.rewind -s 2
              rewind step app.rewind --follow
              rewind step live.rewind --follow --live http://127.0.0.1:7777
            """
    )

    @Argument(help: "The log to read, or a team store (postgres://user@host:port/database).")
    var log: String

    @OptionGroup var sessionOption: SessionOption

    @Option(help: ArgumentHelp("The step to start at (0 is the initial state, -1 the last).", valueName: "step"))
    var at = StepArgument(0)

    @Flag(help: "Reach the steps recorded after it started: for a session being recorded.")
    var follow = false

    @Option(
        help: ArgumentHelp(
            "The rewind live inspector that keeps this log: keys and lines send the session's app through time.", valueName: "url"))
    var live: String?

    @Option(help: ArgumentHelp("The pairing code rewind live printed, when it listens beyond loopback.", valueName: "code"))
    var code: String?

    @Option(
        help: ArgumentHelp(
            "How long to wait for the app's answer to each command, 1 to 600 (\(LiveSteering.defaultWait) by default).",
            valueName: "seconds"))
    var wait: Int?

    func validate() throws {
        if follow, SessionStores.isElsewhere(log) {
            throw ValidationError("--follow watches a log on this machine as it is written, not a team store")
        }
        if let live {
            guard SessionStores.isElsewhere(log) == false else {
                throw ValidationError("--live steps through the log rewind live keeps on this machine, not a team store")
            }
            guard let url = URL(string: live), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--live needs the inspector's http URL, like http://127.0.0.1:7777, not '\(live)'")
            }
        }
        if code != nil, live == nil { throw ValidationError("--code goes with --live") }
        if let wait {
            guard live != nil else { throw ValidationError("--wait goes with --live") }
            guard (1...600).contains(wait) else { throw ValidationError("--wait takes 1 to 600 seconds, not \(wait)") }
        }
    }

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(.one(sessionOption.session))) { try await run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) async throws {
        let style = Terminal.style
        let inspector: LogInspector, summary: SessionSummary, follower: LogFollower?
        if follow {
            guard let opened = try Following.open(log, session: sessionOption.session, live: false) else { throw Following.interruptedExit }
            // Once the session is found, Ctrl-C quits as it does without --follow.
            Following.stopCatchingInterrupts()
            (inspector, summary, follower) = (opened.0, opened.1, opened.2)
        } else {
            inspector = try LogInspector(path: log)
            summary = try inspector.session(sessionOption.session)
            follower = nil
        }
        let cursor = try TimeTravelCursor(inspector: inspector, session: summary, step: try inspector.reader.resolveStep(at.value, in: summary))
        let flows = CommandContext.current.flows
        var session = StepSession(
            cursor: cursor, style: style, flow: flows[summary.flow],
            missingFlow: "\(log): " + FlowRequirement(flows: flows).message(session: summary, verb: "rerun"),
            follower: follower
        )
        session.columns = Terminal.size?.columns
        let steering = live.flatMap(URL.init(string:)).map {
            LiveSteering(client: LiveInspectorClient(url: $0, pairingCode: code), wait: .seconds(wait ?? LiveSteering.defaultWait))
        }
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, RawTerminal.enable() {
            defer { RawTerminal.restore() }
            await Self.readKeys(into: &session, following: follow, steering: steering)
        } else {
            await Self.readLines(into: &session, steering: steering)
        }
    }

    /// Runs `line`: a live command through `steering`, any other in `session`.
    private static func run(_ line: String, in session: inout StepSession, steering: LiveSteering?) async -> StepReply {
        if let steering, let lines = await steering.run(line, in: session) { return StepReply(lines: lines) }
        return session.run(line)
    }

    /// Runs each line of standard input; prints a prompt on standard error only when a person
    /// types at a terminal. Each command's output follows an empty line.
    static func readLines(into session: inout StepSession, steering: LiveSteering? = nil) async {
        let prompts = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        write(session.view())
        while true {
            if prompts { FileHandle.standardError.write(Data("step> ".utf8)) }
            guard let line = readLine() else { return }
            let reply = await run(line, in: &session, steering: steering)
            if !reply.output.isEmpty { write([""] + reply.output) }
            if reply.quits { return }
        }
    }

    /// Runs a command per key on a terminal in raw mode, redrawing the screen after each;
    /// `following`, also when the session grows while no key comes.
    static func readKeys(into session: inout StepSession, following: Bool, steering: LiveSteering? = nil) async {
        var keypad = StepKeypad(live: steering != nil)
        var notes: [String] = []
        draw(session, notes: notes, keypad: keypad)
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            if following, !keyArrives(within: 200) {
                // A step that cannot be read is said when a key next runs a command.
                if (try? session.catchUp()) == true { draw(session, notes: notes, keypad: keypad) }
                continue
            }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            for key in KeyStroke.decode(Array(buffer[..<count])) {
                if steering != nil { keypad.dispatchText = dispatchText(session) }
                switch keypad.press(key) {
                case let .run(line):
                    let reply = await run(line, in: &session, steering: steering)
                    if reply.quits {
                        write([""])
                        return
                    }
                    notes = reply.lines
                case .help:
                    notes = keypad.help
                case .prompting, .cancelled:
                    break
                case .ignored:
                    continue
                }
                draw(session, notes: notes, keypad: keypad)
            }
        }
        write([""])
    }

    /// The action of the step shown, as JSON on one line: what `a` offers to dispatch.
    private static func dispatchText(_ session: StepSession) -> String {
        let cursor = session.cursor
        guard cursor.step > 0, let event = try? cursor.inspector.reader.events(of: cursor.session, steps: cursor.step...cursor.step).first
        else { return "" }
        return event.action.canonicalString
    }

    /// Whether standard input has a key to read within `milliseconds` (or an error to read).
    private static func keyArrives(within milliseconds: Int32) -> Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&input, 1, milliseconds) != 0
    }

    /// Clears the screen and shows the step, the last command's output, and the open prompt
    /// or a reminder of the keys.
    static func draw(_ session: StepSession, notes: [String], keypad: StepKeypad) {
        let size = Terminal.size
        // The width is read at each draw: the window may have been resized since the last.
        var shown = session
        shown.columns = size?.columns
        let lines = CursorView(style: session.style).screen(
            view: shown.view(), notes: notes, bottom: keypad.bottomLine(style: session.style), size: size
        )
        let text = "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n")
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `lines` to standard output at once, each ended by a newline.
    static func write(_ lines: [String]) {
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
