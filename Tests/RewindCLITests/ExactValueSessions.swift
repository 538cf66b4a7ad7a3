import Foundation
import RewindCore
import RewindLog

/// A session of values a JavaScript number cannot hold and names that turn text around, for
/// the report's tests: its initial state is null, step 2 moves an integer past 2^53 by one and
/// turns 0.0 into -0.0, and step 3's action, named with a right-to-left override, adds one
/// character to a 2,000-character string.
enum ExactValueSessions {
    struct Numbers: Codable, Equatable, Sendable {
        var big: Int
        var widest: Int
        var zero: Double
        var items: [Item]
        /// Keys that read as nothing, as an element, and 10,000 characters long, and a key and a
        /// value holding U+202E and a line break.
        var labels: [String: String]
        /// 2,000 characters; the tap adds one.
        var note: String
        /// 2,000 emoji (4,000 UTF-16 units); the nudge adds `!`.
        var faces: String
        /// 2,000 `x` and `é`; the nudge writes the `é` as `e` + U+0301, a change only bytes show.
        var accent: String
    }

    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    /// `didTap` + U+202E + `gnp.exe`: shown raw, it reads `didTapexe.png`.
    static let overridden = "didTap\u{202E}gnp.exe"

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case start
        case nudge
        case tap

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: HostileSessions.Key.self)
            let name =
                switch self {
                case .start: "start"
                case .nudge: "nudge"
                case .tap: ExactValueSessions.overridden
                }
            _ = container.nestedContainer(keyedBy: HostileSessions.Key.self, forKey: HostileSessions.Key(name))
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: HostileSessions.Key.self)
            let name = container.allKeys.first?.stringValue
            self = name == "start" ? .start : name == "nudge" ? .nudge : .tap
        }
    }

    struct Feature: Reducer {
        func reduce(into state: inout Numbers?, action: Action) -> Effect<Action> {
            switch action {
            case .start:
                state = Numbers(
                    big: 9_007_199_254_740_992, widest: .max, zero: 0.0,
                    items: [Item(id: 9_007_199_254_740_993, title: "a"), Item(id: 9_007_199_254_740_995, title: "b")],
                    labels: [
                        "": "empty", "[id=3]": "bracket", String(repeating: "k", count: 10_000): "long",
                        "rtl\u{202E}": "a\nb\u{202E}c",
                    ],
                    note: String(repeating: "x", count: 2_000), faces: String(repeating: "😀", count: 2_000),
                    accent: String(repeating: "x", count: 2_000) + "\u{E9}")
            case .nudge:
                state?.big += 1
                state?.zero = -0.0
                state?.items[1].title = "B"
                state?.faces += "!"
                state?.accent = String(repeating: "x", count: 2_000) + "e\u{301}"
            case .tap:
                state?.note += "!"
            }
            return .none
        }
    }

    @MainActor
    static func record(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Numbers?, Action>(sink: sink, session: SessionDescriptor(name: "exact", flow: "numbers", now: { .testEpoch }))
        let store = Store(initialState: nil, reducer: Feature(), middleware: [recorder])
        store.send(.start)
        store.send(.nudge)
        store.send(.tap)
        recorder.close()
        try sink.close()
    }
}

/// A list of 500 identified items, for the report's tests: step 1 renames the item with id 436.
enum BigListSessions {
    struct State: Codable, Equatable, Sendable {
        var items: [ExactValueSessions.Item] = (1...500).map { ExactValueSessions.Item(id: $0, title: "item \($0)") }
    }

    enum Action: String, Codable, Equatable, Sendable, DescribedAction {
        case rename
    }

    struct Feature: Reducer {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.items[435].title = "renamed"
            return .none
        }
    }

    @MainActor
    static func record(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<State, Action>(sink: sink, session: SessionDescriptor(name: "list", flow: "list", now: { .testEpoch }))
        let store = Store(initialState: State(), reducer: Feature(), middleware: [recorder])
        store.send(.rename)
        recorder.close()
        try sink.close()
    }
}

/// 700 renames over a list of 300, each step's title unlike any before: a state rebuilt from
/// a wrong start reads differently, where a session that sets a whole value each step (the
/// photo app's detail) would hide it.
enum RenamingSessions {
    struct State: Codable, Equatable, Sendable {
        var renames = 0
        var items: [ExactValueSessions.Item] = (1...300).map { ExactValueSessions.Item(id: $0, title: "item \($0)") }
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case rename(Int)
    }

    struct Feature: Reducer {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            guard case .rename(let index) = action else { return .none }
            state.renames += 1
            state.items[index].title = "rename \(state.renames)"
            return .none
        }
    }

    static let steps = 700

    @MainActor
    static func record(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<State, Action>(sink: sink, session: SessionDescriptor(name: "renames", flow: "list", now: { .testEpoch }))
        let store = Store(initialState: State(), reducer: Feature(), middleware: [recorder])
        for step in 1...steps { store.send(.rename(step * 37 % 300)) }
        recorder.close()
        try sink.close()
    }
}
