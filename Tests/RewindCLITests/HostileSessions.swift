import Foundation
import RewindCore
import RewindLog

/// A session whose every recorded string carries what a terminal would act on, recorded as an
/// app would: for the tests that check each verb prints it escaped.
enum HostileSessions {
    /// Clears the screen (CSI 2 J), retitles the window (OSC 0 … BEL), the 8-bit CSI (U+009B)
    /// with a colour, DEL, the right-to-left override, a carriage return and a newline.
    static let text = "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\u{7F}\u{202E}\r\n"
    /// `text` as the terminal shows it.
    static let escaped = #"\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u202e\r\n"#

    /// The session's name, flow and the action's origin and name, each holding `text`.
    static let name = "evil" + text
    static let flow = "flow" + text
    static let origin = "editor" + text
    static let actionName = "write" + text
    static let outputName = "done" + text

    struct State: Codable, Equatable, Sendable {
        var note = ""
        /// Keyed by a recorded string: a path through it quotes the key.
        var tags: [String: String] = [:]
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction, OutputAction {
        /// Encoded `{"write…": {"_0": text}}`: the case name is `actionName`.
        case write(String)
        case output(Output)

        /// Encoded `{"done…": {}}`.
        struct Output: Codable, Equatable, Sendable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(HostileSessions.outputName))
            }

            init() {}

            init(from decoder: any Decoder) throws {}
        }

        var origin: String { HostileSessions.origin }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case let .write(text):
                var payload = container.nestedContainer(keyedBy: Key.self, forKey: Key(HostileSessions.actionName))
                try payload.encode(text, forKey: Key("_0"))
            case let .output(output):
                var payload = container.nestedContainer(keyedBy: Key.self, forKey: Key("output"))
                try payload.encode(output, forKey: Key("_0"))
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if container.contains(Key("output")) {
                self = .output(Output())
            } else {
                let payload = try container.nestedContainer(keyedBy: Key.self, forKey: Key(HostileSessions.actionName))
                self = .write(try payload.decode(String.self, forKey: Key("_0")))
            }
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Writing sets the note and files it under the hostile tag, and tells the parent.
    struct Feature: Reducer {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            guard case let .write(text) = action else { return .none }
            state.note = text
            state.tags[HostileSessions.text] = text
            return .output(Action.Output())
        }
    }

    /// Records one session: step 1 writes `text`, step 3 writes it twice over, and steps 2
    /// and 4 are their outputs.
    @MainActor
    static func record(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<State, Action>(sink: sink, session: SessionDescriptor(name: name, flow: flow, now: { .testEpoch }))
        let store = Store(initialState: State(), reducer: Feature(), middleware: [recorder])
        store.send(.write(text))
        store.send(.write(text + text))
        recorder.close()
        try sink.close()
    }
}
