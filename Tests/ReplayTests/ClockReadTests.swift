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

    /// How the reducer reads the clock: at a resolution of a second, a minute or a day, as a
    /// number or a text.
    enum Clock: String, CaseIterable, Sendable {
        case seconds, milliseconds, referenceSeconds, iso8601, day
        /// `Date`'s description, `2026-11-22 12:03:04 +0000`.
        case description
        /// `2026-11-22 12:03:04` in the local zone, which the text does not name.
        case localDateTime
        /// `12:03:04`, local.
        case timeOfDay
        /// `12:03 PM`, to the minute, as US formatters write it (with U+202F before `PM`).
        case twelveHour
        /// A time inside a longer text: `saved at 12:03:04`.
        case savedAt
        /// Seconds since 1970 as a text.
        case secondsText

        func stamp(at date: Date) -> Stamp {
            switch self {
            case .seconds: return .int(Int(date.timeIntervalSince1970))
            case .milliseconds: return .int(Int(date.timeIntervalSince1970 * 1_000) / 1_000 * 1_000)
            case .referenceSeconds: return .double(date.timeIntervalSinceReferenceDate.rounded(.down) + 0.5)
            case .iso8601: return .string(ISO8601DateFormatter().string(from: date))
            case .day: return .string(String(ISO8601DateFormatter().string(from: date).prefix(10)))
            case .description: return .string(date.description)
            case .localDateTime: return .string(Self.local("yyyy-MM-dd HH:mm:ss", date))
            case .timeOfDay: return .string(Self.local("HH:mm:ss", date))
            case .twelveHour: return .string(Self.local("h:mm\u{202F}a", date))
            case .savedAt: return .string("saved at \(Self.local("HH:mm:ss", date))")
            case .secondsText: return .string(String(Int(date.timeIntervalSince1970)))
            }
        }

        static func local(_ format: String, _ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = format
            return formatter.string(from: date)
        }
    }

    /// Reads the clock once, when the replay makes it, so that all the runs of a step agree,
    /// as a coarse clock's do unless it ticks between two of them.
    struct Feature: Reducer, Sendable {
        let clock: Clock
        let now = Date()

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.stamp = clock.stamp(at: now)
            return .none
        }
    }

    /// Reads the clock at every run, as a reducer does.
    struct Ticking: Reducer, Sendable {
        let clock: Clock

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.stamp = clock.stamp(at: Date())
            return .none
        }
    }

    /// Writes what it is given, whatever the time.
    struct Writing: Reducer, Sendable {
        let stamp: Stamp

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.stamp = stamp
            return .none
        }
    }
}

@Suite struct ClockReadTests {
    /// A recording made long ago, at another time of day: its stamp is a time from then, in
    /// the clock's format.
    static let then = Date().addingTimeInterval(-(3_000 * 86_400 + 12 * 3_600))

    static func recordLongAgo(_ clock: StampedNotes.Clock, into path: String) throws {
        try record(clock.stamp(at: then), into: path)
    }

    static func record(_ then: StampedNotes.Stamp, into path: String) throws {
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

    @Test(arguments: [StampedNotes.Clock.description, .localDateTime, .timeOfDay, .savedAt])
    func aClockReadAtEveryRunIsNeverAPlainDivergence(clock: StampedNotes.Clock) throws {
        // A second that ticks between two runs makes them differ; otherwise the time is found.
        let folder = try TemporaryDirectory()
        let log = folder.path("notes.rewind")
        try Self.recordLongAgo(clock, into: log)
        let flows = ReplayRegistry([ReplayFlow("notes") { StampedNotes.Ticking(clock: clock) }])
        let outcomes = try (0..<10).map { _ in
            switch try #require(try Replayer(registry: flows).replay(path: log).first).outcome {
            case .readsClock(step: 1, _, _, _, _), .nondeterministic(step: 1, _, _, _): "nondeterministic"
            case let outcome: "\(outcome)"
            }
        }
        #expect(outcomes == Array(repeating: "nondeterministic", count: 10))
    }

    /// The outcome of replaying `recorded` through a reducer that writes `replayed`.
    static func replay(recorded: StampedNotes.Stamp, replayed: StampedNotes.Stamp) throws -> SessionReplay.Outcome {
        let folder = try TemporaryDirectory()
        let log = folder.path("notes.rewind")
        try record(recorded, into: log)
        let flows = ReplayRegistry([ReplayFlow("notes") { StampedNotes.Writing(stamp: replayed) }])
        return try #require(try Replayer(registry: flows).replay(path: log).first).outcome
    }

    @Test func aChangedValueThatIsNotTheTimeIsAPlainDivergence() throws {
        let outcome = try Self.replay(recorded: StampedNotes.Clock.seconds.stamp(at: Self.then), replayed: .int(1_600_000_000))
        guard case .diverged(step: 1, _, _, _) = outcome else {
            Issue.record("expected a divergence, got \(outcome)")
            return
        }
    }

    @Test(arguments: [
        // The text changed besides its time: a divergence, whatever the clock did.
        ("saved at 03:04:05", "saved at NOW (draft)"),
        ("3 notes, saved at 03:04:05", "4 notes, saved at NOW"),
        // Not a time: too many digits for a time of day, a number too short to be seconds.
        ("saved at 103:04:05", "saved at 1NOW"),
        ("12345678", "NOWDIGITS"),
        // A time of day 6 h 7 min 13 s from now: off by what no zone's offset makes up, in UTC
        // or in the local zone.
        ("03:04:05", "LATER"),
    ])
    func aTextThatIsNotJustTheTimeChangedIsAPlainDivergence(recorded: String, replayed: String) throws {
        let now = Date()
        let text =
            replayed
            .replacingOccurrences(of: "NOWDIGITS", with: String(Int(now.timeIntervalSince1970) / 100))
            .replacingOccurrences(of: "NOW", with: StampedNotes.Clock.local("HH:mm:ss", now))
            .replacingOccurrences(of: "LATER", with: StampedNotes.Clock.local("HH:mm:ss", now.addingTimeInterval(22_033)))
        let outcome = try Self.replay(recorded: .string(recorded), replayed: .string(text))
        guard case .diverged(step: 1, _, _, _) = outcome else {
            Issue.record("expected a divergence, got \(outcome)")
            return
        }
    }
}
