import RewindJSON
import RewindLog

/// Runs recorded actions through a reducer, one at a time, on encoded values: what a replayer
/// needs without knowing the flow's types. Effects are not run; their results are in the log
/// as actions.
public protocol ReplayStepper {
    /// Starts from a recorded state.
    mutating func reset(to state: JSONValue) throws(ReplayError)

    /// Reduces one recorded action and returns the encoded state after it.
    mutating func step(_ action: JSONValue) throws(ReplayError) -> JSONValue

    /// The digest of `state`, the value the last ``step(_:)`` returned: a stepper that
    /// remembers what it encoded can reuse the digests of the parts that did not change.
    func digest(ofLastStep state: JSONValue) -> StateDigest

    /// Reduces one recorded action and returns the digest of the state after it, with the
    /// state's tree when it built one: all a check of a recording needs, which a stepper
    /// whose state writes its own text (`@RewindCodable`) takes without building the tree.
    mutating func stepDigest(_ action: JSONValue) throws(ReplayError) -> (digest: StateDigest, state: JSONValue?)

    /// Whether the state after the last ``stepDigest(_:)``, when it returned no tree, holds a
    /// secret's placeholder.
    func lastStateHoldsPlaceholder() -> Bool

    /// Reduces `action` from `state` without touching the stepper's own state, noting whether
    /// the reducer read a redacted secret's characters: for telling nondeterminism and
    /// secret-reading steps apart.
    func trial(from state: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayTrial

    /// The name and origin that the current action type gives an encoded action.
    func describe(_ action: JSONValue) throws(ReplayError) -> (name: String, origin: String)

    /// Whether the last ``step(_:)`` returned an effect that may send actions: whether recorded
    /// effect results after it can still follow from it.
    var lastStepSendsActions: Bool { get }

    /// What the last step's reducer asked for besides its state (outputs, follow-up actions,
    /// work), its actions encoded as a recorder encodes them; nil for a stepper that cannot
    /// tell, whose steps a replay then compares by state alone.
    func lastStepBehaviour() throws(ReplayError) -> RecordedBehaviour?

    /// Whether the last step's reducer asked for exactly what a block records as `outputs` and
    /// `effects` (their canonical text, nil for none): the quick check before
    /// ``lastStepBehaviour()``. False when it cannot tell; then the full comparison decides.
    func lastStepBehaviourIsWritten(asOutputs outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?) -> Bool
}

extension ReplayStepper {
    @available(*, deprecated, renamed: "trial(from:action:)")
    public func probe(from state: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayTrial {
        try trial(from: state, action: action)
    }

    public func digest(ofLastStep state: JSONValue) -> StateDigest { state.digest }

    public mutating func stepDigest(_ action: JSONValue) throws(ReplayError) -> (digest: StateDigest, state: JSONValue?) {
        let state = try step(action)
        return (digest(ofLastStep: state), state)
    }

    // Never asked: the steps above always return their tree.
    public func lastStateHoldsPlaceholder() -> Bool { false }

    // A stepper that cannot tell says yes, so that no recorded result is thought impossible.
    public var lastStepSendsActions: Bool { true }

    public func lastStepBehaviour() throws(ReplayError) -> RecordedBehaviour? { nil }

    public func lastStepBehaviourIsWritten(asOutputs outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?) -> Bool { false }
}
