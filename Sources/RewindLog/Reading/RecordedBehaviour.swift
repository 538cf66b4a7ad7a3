import RewindCore
import RewindJSON

/// What a recorded step asked for besides its state, as a replay compares it: its outputs, its
/// follow-up actions and work, and the step whose effect sent its own action.
public struct RecordedBehaviour: Sendable, Equatable {
    /// The step whose effect sent this step's action; nil for a user's action.
    public var cause: Int?
    /// The outputs the step emitted, whole actions.
    public var outputs: [JSONValue]
    /// Its follow-up actions and work; nil in a session written before format 5, where only
    /// cause links tell that a step started work.
    public var effects: RecordedEffects?

    public init(cause: Int? = nil, outputs: [JSONValue] = [], effects: RecordedEffects? = RecordedEffects()) {
        self.cause = cause
        self.outputs = outputs
        self.effects = effects
    }

    /// Reads a step's stored outputs and effects (`null`, or absent, for none): `effects` only in
    /// a session of format 5 or later, which records them.
    static func read(
        cause: Int?, outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?, of session: SessionSummary
    ) throws -> RecordedBehaviour {
        try RecordedBehaviourText(cause: cause, outputs: outputs, effects: effects, recordsEffects: session.recordsEffects).parsed()
    }
}

/// A step's recorded behaviour as its log stores it, valid only during the call it is passed
/// to: its cause, and the canonical text of its outputs and effects, parsed only when asked.
///
/// A replay compares the text with what the step asks for now, written the same way, and
/// parses it only when they differ (see `RewindReplay`'s `BehaviourWriter`).
public struct RecordedBehaviourText {
    /// The step whose effect sent this step's action; nil for a user's action.
    public let cause: Int?
    /// The outputs' JSON array, `[…]`; nil for none.
    public let outputs: UnsafeRawBufferPointer?
    /// The effects' JSON object, `{"runs":[…]}`; nil for none, or not recorded.
    public let effects: UnsafeRawBufferPointer?
    /// Whether the session records its steps' effects (log format 5).
    public let recordsEffects: Bool

    init(cause: Int?, outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?, recordsEffects: Bool) {
        self.cause = cause
        self.outputs = outputs
        self.effects = effects
        self.recordsEffects = recordsEffects
    }

    /// Whether the step has no cause, outputs or effects recorded, nearly every step.
    public var isEmpty: Bool { cause == nil && outputs == nil && effects == nil }

    /// The behaviour, its values parsed.
    public func parsed() throws -> RecordedBehaviour {
        var behaviour = RecordedBehaviour(cause: cause, effects: nil)
        if let outputs, case let .array(values) = try JSONValue(parsing: outputs) { behaviour.outputs = values }
        if recordsEffects {
            behaviour.effects = try effects.map { try RecordedEffects(json: try JSONValue(parsing: $0)) } ?? RecordedEffects()
        }
        return behaviour
    }
}
