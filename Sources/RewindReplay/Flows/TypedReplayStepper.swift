import RewindCore
import RewindJSON
import RewindLog

/// A ``ReplayStepper`` over a reducer of known types: decodes each recorded value into them.
///
/// Inlinable, with `ReplayFlow.init`, so that the app's module compiles its steps for the app's
/// types (see `SpecializedReplayStepper`).
@usableFromInline
struct TypedReplayStepper<R: Reducer>: ReplayStepper where R.State: RecordableState, R.Action: RecordableAction {
    @usableFromInline let reducer: R
    @usableFromInline var state: R.State?
    @usableFromInline var lastStepSendsActions = false
    /// What the last step's reducer returned when it was not `.none` (see
    /// `lastStepSendsActions`), summarized only when asked.
    @usableFromInline var lastEffect: Effect<R.Action> = .none
    /// Encodes the actions a step sends or emits, as the recorder encodes them.
    @usableFromInline let sentActionEncoder = JSONTypedEncoder(R.Action.self)
    /// Writes them as a block stores them, for ``lastStepBehaviourIsWritten(asOutputs:effects:)``;
    /// shared by copies, as the memo is.
    @usableFromInline let behaviourWriter = BehaviourWriter()
    /// Each step encodes a state: whether the type builds its own tree is asked once.
    @usableFromInline let encoder = JSONTypedEncoder(R.State.self)
    @usableFromInline let decoder = JSONValueDecoder()
    /// Each step decodes an action: whether the type reads its own tree is asked once.
    @usableFromInline let actionDecoder = JSONTypedDecoder(R.Action.self)
    /// What the last step encoded: the next re-encodes only the elements that changed, and
    /// hashes only those. One stepper serves one chunk, on one thread.
    @usableFromInline let memo: JSONEncodingMemo
    /// Takes the digest of a state that writes its own text, without its tree
    /// (``stepDigest(_:)``); shared by copies, as the memo is.
    @usableFromInline let digester: ReplayDigester

    /// A stepper whose digests take arrays by `digestRule`, the replayed session's.
    @inlinable
    init(reducer: R, digestRule: StateDigest.Rule) {
        self.reducer = reducer
        memo = JSONEncodingMemo(rule: digestRule)
        digester = ReplayDigester(rule: digestRule)
    }

    @inlinable
    mutating func reset(to value: JSONValue) throws(ReplayError) {
        state = try Self.decode(R.State.self, value, with: decoder)
    }

    @inlinable
    mutating func step(_ action: JSONValue) throws(ReplayError) -> JSONValue {
        try encodedTree(of: reduce(action))
    }

    @inlinable
    func digest(ofLastStep state: JSONValue) -> StateDigest {
        memo.digest(of: state)
    }

    @inlinable
    mutating func stepDigest(_ action: JSONValue) throws(ReplayError) -> (digest: StateDigest, state: JSONValue?) {
        let current = try reduce(action)
        if let treeType = encoder.treeType, !digester.prefersTrees, let digest = digester.digest(of: current, as: treeType) {
            return (digest, nil)
        }
        // A value its writer refuses (a double that is not finite), or a state grown large: the
        // tree, which says what it refuses and, through the memo, encodes only what changed.
        let tree = try encodedTree(of: current)
        return (memo.digest(of: tree), tree)
    }

    /// Decodes `action`, reduces the stepper's state with it, and returns the state after it.
    @inlinable
    mutating func reduce(_ action: JSONValue) throws(ReplayError) -> R.State {
        guard var current = state else { throw ReplayError(.noState, "the stepper has no state to start from") }
        // Locals rather than `self` in the closures, which copied the whole stepper each step.
        let actionDecoder = actionDecoder
        let decoded = try Self.decode(R.Action.self, action) { try actionDecoder.decode(from: $0) }
        state = nil
        // Outputs come back as recorded actions too: any effect counts.
        let effect = reducer.reduce(into: &current, action: decoded)
        lastStepSendsActions = !effect.isNone
        // Kept only when read (see `lastStepBehaviour()`): most steps return `.none`.
        if lastStepSendsActions { lastEffect = effect }
        state = current
        return current
    }

    @inlinable
    func lastStepBehaviour() throws(ReplayError) -> RecordedBehaviour? {
        guard lastStepSendsActions else { return RecordedBehaviour() }
        let summary = lastEffect.summary
        do {
            return RecordedBehaviour(
                outputs: try summary.outputs.map(sentActionEncoder.encode),
                effects: RecordedEffects(sends: try summary.sends.map(sentActionEncoder.encode), runs: summary.runs))
        } catch {
            throw ReplayError(.cannotEncode, "cannot encode \(R.Action.self): \(error)", underlying: error)
        }
    }

    @inlinable
    func lastStepBehaviourIsWritten(asOutputs outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?) -> Bool {
        guard lastStepSendsActions else { return (outputs?.isEmpty ?? true) && (effects?.isEmpty ?? true) }
        return behaviourWriter.matches(lastEffect.summary, as: sentActionEncoder.treeType, outputs: outputs, effects: effects)
    }

    /// The tree of `state`, encoded through the memo.
    @inlinable
    func encodedTree(of state: R.State) throws(ReplayError) -> JSONValue {
        do {
            return try encoder.encode(state, memo: memo)
        } catch {
            throw Self.encodingFailure(error)
        }
    }

    @inlinable
    func lastStateHoldsPlaceholder() -> Bool {
        digester.holdsPlaceholder()
    }

    @inlinable
    func trial(from value: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayTrial {
        let reads = SecretReads()
        var decoder = JSONValueDecoder()
        decoder.userInfo[.secretReads] = reads
        var state = try Self.decode(R.State.self, value, with: decoder)
        _ = reducer.reduce(into: &state, action: try Self.decode(R.Action.self, action, with: decoder))
        return ReplayTrial(state: try encode(state), readSecret: reads.anyRead)
    }

    @inlinable
    func describe(_ action: JSONValue) throws(ReplayError) -> (name: String, origin: String) {
        let decoded = try Self.decode(R.Action.self, action, with: decoder)
        return (decoded.name, decoded.origin)
    }

    @inlinable
    func encode(_ value: R.State) throws(ReplayError) -> JSONValue {
        do {
            return try encoder.encode(value)
        } catch {
            throw Self.encodingFailure(error)
        }
    }

    @inlinable
    static func encodingFailure(_ error: any Error) -> ReplayError {
        ReplayError(.cannotEncode, "cannot encode \(R.State.self): \(error)", underlying: error)
    }

    @inlinable
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, with decoder: JSONValueDecoder) throws(ReplayError) -> T {
        try decode(type, value) { try decoder.decode(type, from: $0) }
    }

    /// `decoding(value)`, its errors as replay errors.
    @inlinable
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, by decoding: (JSONValue) throws -> T) throws(ReplayError) -> T {
        do {
            return try decoding(value)
        } catch let error as DecodingError {
            throw ReplayError(.cannotDecode, DecodingFailure.describe(error, type: type, in: value), underlying: error)
        } catch {
            throw ReplayError(.cannotDecode, "cannot decode \(type): \(error)", underlying: error)
        }
    }
}
