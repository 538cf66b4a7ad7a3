import Foundation
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import RewindReplay
import Testing

/// A note-taking screen that stamps each note with the time, the way a reducer should not.
enum StampedNotes {
    struct State: Codable, Equatable, Sendable {
        var stamp: Stamp?
    }

    /// A time as the reducer writes it: a number or a text, encoded as a bare JSON value.
    enum Stamp: Codable, Equatable, Sendable {
        case int(Int)
        case double(Double)
        case string(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let int = try? container.decode(Int.self) {
                self = .int(int)
            } else if let double = try? container.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case let .int(value): try container.encode(value)
            case let .double(value): try container.encode(value)
            case let .string(value): try container.encode(value)
            }
        }
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case didTapSave
    }

    /// How the reducer reads the clock: at a resolution of a second, a millisecond, or a day.
    enum Clock: String, CaseIterable, Sendable {
        case seconds, milliseconds, referenceSeconds, iso8601, day

        func read(at now: Date) -> Stamp {
            switch self {
            case .seconds: return .int(Int(now.timeIntervalSince1970))
            case .milliseconds: return .int(Int(now.timeIntervalSince1970 * 1_000) / 1_000 * 1_000)
            case .referenceSeconds: return .double(now.timeIntervalSinceReferenceDate.rounded(.down) + 0.5)
            case .iso8601: return .string(ISO8601DateFormatter().string(from: now))
            case .day: return .string(String(ISO8601DateFormatter().string(from: now).prefix(10)))
            }
        }
    }

    /// Reads the clock once, when the replay makes it, so that all the runs of a step agree,
    /// as a coarse clock's do unless it ticks between two of them.
    struct Feature: Reducer, Sendable {
        let clock: Clock
        let now = Date()

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.stamp = clock.read(at: now)
            return .none
        }
    }
}

@Suite struct ClockReadTests {
    /// A recording made long ago: its stamp is a time from then, in the clock's format.
    static func recordLongAgo(_ clock: StampedNotes.Clock, into path: String) throws {
        let then: StampedNotes.Stamp =
            switch clock {
            case .seconds: .int(1_500_000_000)
            case .milliseconds: .int(1_500_000_000_000)
            case .referenceSeconds: .double(500_000_000.5)
            case .iso8601: .string("2017-07-14T02:40:00Z")
            case .day: .string("2017-07-14")
            }
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<StampedNotes.State, StampedNotes.Action>(sink: sink, session: SessionDescriptor(name: "save", flow: "notes"))
        recorder.start(initialState: StampedNotes.State())
        recorder.record(.didTapSave, state: StampedNotes.State(stamp: then), step: 1)
        recorder.close()
        try sink.close()
    }

    @Test(arguments: StampedNotes.Clock.allCases)
    func aReducerReadingACoarseClockIsNondeterministicNotDivergent(clock: StampedNotes.Clock) throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("notes.rewind")
        try Self.recordLongAgo(clock, into: log)
        let flows = ReplayRegistry([ReplayFlow("notes") { StampedNotes.Feature(clock: clock) }])
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        guard case let .readsClock(step, action, _, changes, paths) = replay.outcome else {
            Issue.record("expected the clock to be found, got \(replay.outcome)")
            return
        }
        #expect(step == 1)
        #expect(action == "didTapSave")
        #expect(paths.map(\.description) == ["stamp"])
        #expect(changes.map(\.path.description) == ["stamp"])
        #expect(
            ReplayReport.lines(replay, style: .plain)[0]
                == "FAILED  \(log) #1 (save): nondeterministic at step 1 (stampedNotes  didTapSave): the replay put the current time in stamp, so the reducer reads the clock; recorded → replayed:"
        )
        #expect(replay.outcome.isRefusedOrNondeterministic, "--update does not accept it")
    }

    @Test func aChangedValueThatIsNotTheTimeIsAPlainDivergence() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("notes.rewind")
        try Self.recordLongAgo(.seconds, into: log)
        struct Fixed: Reducer, Sendable {
            func reduce(into state: inout StampedNotes.State, action: StampedNotes.Action) -> Effect<StampedNotes.Action> {
                state.stamp = .int(1_600_000_000)
                return .none
            }
        }
        let replay = try #require(try Replayer(registry: ReplayRegistry([ReplayFlow("notes") { Fixed() }])).replay(path: log).first)
        guard case .diverged(step: 1, _, _, _) = replay.outcome else {
            Issue.record("expected a divergence, got \(replay.outcome)")
            return
        }
    }
}
