import Foundation
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import RewindReplay
import Testing

/// A counter as version 1 of an app shipped it: the recording is made with these types.
enum CounterV1 {
    struct State: Codable, Equatable, Sendable { var count = 0 }
    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case didTapPlus
        case didTapMinus
        var origin: String { "counter" }
    }
    struct Feature: Reducer, Sendable {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += action == .didTapPlus ? 1 : -1
            return .none
        }
    }
}

/// Version 2: `didTapPlus` renamed `didTapIncrement`, and an optional field added.
enum CounterV2 {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var label: String?
    }
    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case didTapIncrement
        case didTapMinus
        var origin: String { "counter" }
    }
    struct Feature: Reducer, Sendable {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += action == .didTapIncrement ? 1 : -1
            return .none
        }
    }
    /// Reads schema 1: the renamed case gets its new name.
    static let renamePlus = SchemaMigration(
        from: 1,
        action: { action in
            if case let .object(object) = action, let payload = object["didTapPlus"] {
                action = ["didTapIncrement": payload]
            }
        })
}

/// Version 2 without the rename: only the optional field was added.
enum CounterV1WithLabel {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var label: String?
    }
    struct Feature: Reducer, Sendable {
        func reduce(into state: inout State, action: CounterV1.Action) -> Effect<CounterV1.Action> {
            state.count += action == .didTapPlus ? 1 : -1
            return .none
        }
    }
}

@Suite struct SchemaEvolutionTests {
    let folder: TemporaryDirectory
    let log: String

    /// The fixture: a recording made with version 1's types, schema version 1.
    init() throws {
        folder = try TemporaryDirectory()
        log = folder.path("counter-v1.rewind")
        let sink = try SQLiteSink(path: log)
        let recorder = Recorder<CounterV1.State, CounterV1.Action>(sink: sink, session: SessionDescriptor(name: "taps", flow: "counter", schemaVersion: 1))
        recorder.start(initialState: CounterV1.State())
        var state = CounterV1.State()
        for (step, action) in [CounterV1.Action.didTapPlus, .didTapPlus, .didTapMinus].enumerated() {
            _ = CounterV1.Feature().reduce(into: &state, action: action)
            recorder.record(action, state: state, step: step + 1)
        }
        recorder.close()
        try sink.close()
    }

    @Test func aRenamedCaseIsRefusedNamingTheTypeTheCaseAndTheStep() throws {
        let flows = ReplayRegistry([ReplayFlow("counter", schemaVersion: 1) { CounterV2.Feature() }])
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(replay.outcome == .refused(step: 1, reason: "didTapPlus (counter): CounterV2.Action has no case 'didTapPlus' (removed or renamed?)"))
        #expect(
            ReplayReport.lines(replay, style: .plain) == [
                "FAILED  \(log) #1 (taps): cannot replay step 1: didTapPlus (counter): CounterV2.Action has no case 'didTapPlus' (removed or renamed?)"
            ])
    }

    @Test func anAddedOptionalFieldStillDecodes() throws {
        let flows = ReplayRegistry([ReplayFlow("counter") { CounterV1WithLabel.Feature() }])
        #expect(try Replayer(registry: flows).replay(path: log).map(\.outcome) == [.matched])
    }

    @Test func aMigrationBySchemaVersionIsAppliedBeforeDecoding() throws {
        let flows = ReplayRegistry([ReplayFlow("counter", schemaVersion: 2, migrations: [CounterV2.renamePlus]) { CounterV2.Feature() }])
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(replay.outcome == .matched)
        #expect(
            ReplayReport.lines(replay, style: .plain) == [
                "ok      \(log) #1 (taps): 3 steps replayed, every state matches (migrated from schema 1 to 2)"
            ], "the line says the recording was migrated")

        // Updating moves the recording to the new schema; it then replays without migrating.
        #expect(try Replayer(registry: flows).update(path: log).map(\.rewritten) == [true])
        #expect(try LogReader(path: log).session(nil).schemaVersion == 2)
        let noMigrations = ReplayRegistry([ReplayFlow("counter", schemaVersion: 2) { CounterV2.Feature() }])
        let updated = try #require(try Replayer(registry: noMigrations).replay(path: log).first)
        #expect(ReplayReport.lines(updated, style: .plain) == ["ok      \(log) #1 (taps): 3 steps replayed, every state matches"])
    }

    @Test func updatingGivesTheStepsTheirNewActionNames() throws {
        let session = try LogReader(path: log).session(nil)
        #expect(try LogReader(path: log).events(of: session, steps: 1...3).map(\.actionName) == ["didTapPlus", "didTapPlus", "didTapMinus"])
        let flows = ReplayRegistry([ReplayFlow("counter", schemaVersion: 2, migrations: [CounterV2.renamePlus]) { CounterV2.Feature() }])
        #expect(try Replayer(registry: flows).update(path: log).map(\.rewritten) == [true])

        let reader = try LogReader(path: log)
        let events = try reader.events(of: try reader.session(nil), steps: 1...3)
        #expect(events.map(\.actionName) == ["didTapIncrement", "didTapIncrement", "didTapMinus"])
        #expect(events.map(\.action.canonicalString) == [#"{"didTapIncrement":{}}"#, #"{"didTapIncrement":{}}"#, #"{"didTapMinus":{}}"#])
        let found = try LogInspector(path: log).timeline(of: try reader.session(nil), steps: 1...3).filter { ActionGlob("didTapIncrement").matches($0.name) }
        #expect(found.map(\.step) == [1, 2])
    }

    @Test func aRecordingFromANewerSchemaIsRefused() throws {
        let flows = ReplayRegistry([ReplayFlow("counter", schemaVersion: 1) { CounterV1WithLabel.Feature() }])
        let sink = try SQLiteSink(path: folder.path("v3.rewind"))
        let recorder = Recorder<CounterV1.State, CounterV1.Action>(sink: sink, session: SessionDescriptor(name: "new", flow: "counter", schemaVersion: 3))
        recorder.start(initialState: CounterV1.State())
        recorder.close()
        try sink.close()
        #expect(
            try Replayer(registry: flows).replay(path: folder.path("v3.rewind")).map(\.outcome) == [
                .refused(step: 0, reason: "recorded with schema version 3, newer than flow counter's 1")
            ])
    }
}
