import RewindRendering

/// The single-key controls of `rewind step` on a terminal: turns keys into command lines for a
/// ``StepSession``, and edits the short prompts that `/` (find) and `j` (jump) open.
///
/// | key | command |
/// |---|---|
/// | `→`, `n`, space | `next` |
/// | `←`, `b` | `back` |
/// | `Home`, `g` | `first` |
/// | `End`, `G` | `last` |
/// | `s` | `show` |
/// | `d` | `diff` (against the previous step) |
/// | `r` | `rerun` (the current reducer on this step) |
/// | `/` GLOB Enter | `find GLOB` |
/// | `j` N Enter | `jump N` |
/// | `?` | the keys |
/// | `q`, Ctrl-C, Ctrl-D | `quit` |
///
/// With ``live`` (`rewind step --live`), keys that send the running app through time:
/// `t` `travel`, `c` `resume`, `x` `skip`, `X` `unskip` (each of the step shown), and `a`,
/// which opens a prompt holding ``dispatchText`` to edit, then `dispatch TEXT`.
///
/// In a prompt, Enter runs it, Backspace deletes, Escape or Ctrl-C cancels.
public struct StepKeypad: Sendable {
    /// A prompt being typed: `find: did` or `jump to step: 1`.
    public struct Prompt: Sendable, Equatable {
        /// The command the prompt completes, `find` or `jump`.
        public var command: String
        /// What the prompt says before the text.
        public var label: String
        /// What has been typed so far.
        public var text: String

        public init(command: String, label: String, text: String = "") {
            self.command = command
            self.label = label
            self.text = text
        }

        /// The prompt as shown: label and text.
        public var line: String { label + text }
    }

    /// What a key asks for.
    public enum Outcome: Sendable, Equatable {
        /// Run this command line.
        case run(String)
        /// Show the keys.
        case help
        /// A prompt opened or its text changed: redraw it.
        case prompting(Prompt)
        /// The prompt was cancelled.
        case cancelled
        /// The key does nothing.
        case ignored
    }

    /// The prompt being typed, if any.
    public private(set) var prompt: Prompt?

    /// Whether the keys of a live inspector's app work (`rewind step --live`).
    public var live: Bool
    /// What `a` opens its prompt with: the action of the step shown, as JSON.
    public var dispatchText = ""

    public init(live: Bool = false) {
        self.live = live
    }

    /// What `key` asks for, updating the prompt.
    public mutating func press(_ key: KeyStroke) -> Outcome {
        if prompt != nil { return edit(key) }
        if live {
            switch key {
            case .character("t"): return .run("travel")
            case .character("c"): return .run("resume")
            case .character("x"): return .run("skip")
            case .character("X"): return .run("unskip")
            case .character("a"): return open(Prompt(command: "dispatch", label: "dispatch: ", text: dispatchText))
            default: break
            }
        }
        switch key {
        case .right, .character("n"), .character(" "): return .run("next")
        case .left, .character("b"): return .run("back")
        case .home, .character("g"): return .run("first")
        case .end, .character("G"): return .run("last")
        case .character("s"): return .run("show")
        case .character("d"): return .run("diff")
        case .character("r"): return .run("rerun")
        case .character("?"): return .help
        case .character("q"), .interrupt, .endOfInput: return .run("quit")
        case .character("/"): return open(Prompt(command: "find", label: "find: "))
        case .character("j"): return open(Prompt(command: "jump", label: "jump to step: "))
        default: return .ignored
        }
    }

    private mutating func open(_ prompt: Prompt) -> Outcome {
        self.prompt = prompt
        return .prompting(prompt)
    }

    private mutating func edit(_ key: KeyStroke) -> Outcome {
        guard var prompt else { return .ignored }
        switch key {
        case let .character(character):
            prompt.text.append(character)
        case .backspace:
            guard !prompt.text.isEmpty else {
                self.prompt = nil
                return .cancelled
            }
            prompt.text.removeLast()
        case .enter:
            self.prompt = nil
            let text = prompt.text.trimmingSpaces
            return text.isEmpty ? .cancelled : .run("\(prompt.command) \(text)")
        case .escape, .interrupt, .endOfInput:
            self.prompt = nil
            return .cancelled
        default:
            return .ignored
        }
        self.prompt = prompt
        return .prompting(prompt)
    }

    /// What `?` shows: one line per key.
    public static let helpLines = [
        "→ n space   next step        ← b     previous step",
        "Home g      first step       End G   last step",
        "s           show the state   d       diff against the previous step",
        "/ GLOB ⏎    find the next step whose action matches (no wrap-around)",
        "j N ⏎       jump to step N   r       rerun this step with the current reducer",
        "?           these keys",
        "q           quit",
    ]

    /// What `?` adds with ``live``.
    public static let liveHelpLines = [
        "t           send the app to this step     c   resume the app",
        "x / X       skip / unskip this step in the app",
        "a JSON ⏎    dispatch an action to the app (this step's, to edit)",
    ]

    /// The keys `?` shows: ``helpLines``, and ``liveHelpLines`` with ``live``.
    public var help: [String] {
        live ? Self.helpLines + Self.liveHelpLines : Self.helpLines
    }

    /// A one-line reminder of the keys, for the bottom of the screen.
    public static let hint = "→/n next  ←/b back  g/G first/last  s show  d diff  r rerun  / find  j jump  ? keys  q quit"

    /// The reminder with ``live``: the app's keys first.
    public static let liveHint = "t travel  c resume  x/X skip/unskip  a dispatch  →/n next  ←/b back  ? keys  q quit"

    /// The bottom line of the screen: the open prompt, or the reminder of the keys, dimmed.
    public func bottomLine(style: TextStyle) -> String {
        prompt?.line ?? style.dim(live ? Self.liveHint : Self.hint)
    }
}
