import RewindCore
import RewindJSON

/// A flow that recordings replay against: its name in the log, its reducer, its current schema
/// version and the migrations that read older recordings.
public struct ReplayFlow: Sendable {
    public let name: String
    /// The version of the app's state and action types that the reducer reads now.
    public let schemaVersion: Int
    @usableFromInline let migrations: [SchemaMigration]
    @usableFromInline let makeStepper: @Sendable (StateDigest.Rule) -> any ReplayStepper
    /// The flow's Swift types, for `rewind write-test`.
    public let types: FlowTypes

    /// Registers `reducer` under the flow `name` that sessions carry.
    ///
    /// `testReducer` is the Swift expression a test written by `rewind write-test` builds the
    /// reducer with (`"LoginFeature(backend: .idle)"`); left out, the reducer type's name
    /// and `()`. A written test runs no effect, so the reducer's dependencies are never called.
    ///
    /// Inlinable so that the stepper's code is compiled in the app's module, for its types: a
    /// stepper compiled once for every reducer looked up the types' metadata at each step.
    @inlinable
    public init<R: Reducer>(
        _ name: String, schemaVersion: Int = 1, migrations: [SchemaMigration] = [], testReducer: String? = nil,
        reducer: @escaping @Sendable () -> R
    ) where R: Sendable, R.State: RecordableState, R.Action: RecordableAction {
        self.name = name
        self.schemaVersion = schemaVersion
        self.migrations = migrations
        self.makeStepper = { SpecializedReplayStepper(TypedReplayStepper(reducer: reducer(), digestRule: $0)) }
        self.types = FlowTypes(R.self, expression: testReducer)
    }

    /// A fresh stepper over the flow's reducer, whose digests take arrays by `digestRule`: the
    /// rule of the session it replays (`SessionSummary.digestRule`).
    public func stepper(digestRule: StateDigest.Rule) -> any ReplayStepper {
        makeStepper(digestRule)
    }

    /// A fresh stepper over the flow's reducer, whose digests are those of the sessions a
    /// recorder writes now.
    @available(*, deprecated, message: "pass the rule of the session replayed: stepper(digestRule: session.digestRule)")
    public func stepper() -> any ReplayStepper {
        makeStepper(SessionHeader.digestRule(recordingEffects: true))
    }

    /// Upgrades a recorded state or action from `version` to the flow's schema version.
    public func migrate(_ value: inout JSONValue, isAction: Bool, from version: Int) throws {
        guard version < schemaVersion else { return }
        for migration in migrations.sorted(by: { $0.from < $1.from }) where migration.from >= version && migration.from < schemaVersion {
            try isAction ? migration.action(&value) : migration.state(&value)
        }
    }
}
