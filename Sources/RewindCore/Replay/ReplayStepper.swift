import RewindJSON

/// Runs recorded actions through a reducer, one at a time, on encoded values: what a replayer
/// needs without knowing the flow's types. Effects are not run; their results are in the log
/// as actions.
public protocol ReplayStepper {
    /// Starts from a recorded state.
    mutating func reset(to state: JSONValue) throws(ReplayError)

    /// Reduces one recorded action and returns the encoded state after it.
    mutating func step(_ action: JSONValue) throws(ReplayError) -> JSONValue

    /// Reduces `action` from `state` without touching the stepper's own state, noting whether
    /// the reducer read a redacted secret's characters: for telling nondeterminism and
    /// secret-reading steps apart.
    func probe(from state: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayProbe

    /// The name and origin that the current action type gives an encoded action.
    func describe(_ action: JSONValue) throws(ReplayError) -> (name: String, origin: String)
}

/// The outcome of reducing one action from a given state, outside a replay's sequence.
public struct ReplayProbe: Sendable, Equatable {
    /// The encoded state after the action.
    public var state: JSONValue
    /// Whether the reducer read the characters of a redacted secret (its ``Secret/value``,
    /// `==` or hash), which the placeholder only pretends to have.
    public var readSecret: Bool

    public init(state: JSONValue, readSecret: Bool) {
        self.state = state
        self.readSecret = readSecret
    }
}

/// Why a recorded value cannot be replayed.
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

struct TypedReplayStepper<R: Reducer>: ReplayStepper where R.State: RecordableState, R.Action: RecordableAction {
    let reducer: R
    var state: R.State?
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    init(reducer: R) {
        self.reducer = reducer
    }

    mutating func reset(to value: JSONValue) throws(ReplayError) {
        state = try Self.decode(R.State.self, value, with: decoder)
    }

    mutating func step(_ action: JSONValue) throws(ReplayError) -> JSONValue {
        guard var current = state else { throw ReplayError("the stepper has no state to start from") }
        let decoded = try Self.decode(R.Action.self, action, with: decoder)
        state = nil
        _ = reducer.reduce(into: &current, action: decoded)
        state = current
        return try encode(current)
    }

    func probe(from value: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayProbe {
        let reads = SecretReads()
        var decoder = JSONValueDecoder()
        decoder.userInfo[.secretReads] = reads
        var probed = try Self.decode(R.State.self, value, with: decoder)
        _ = reducer.reduce(into: &probed, action: try Self.decode(R.Action.self, action, with: decoder))
        return ReplayProbe(state: try encode(probed), readSecret: reads.anyRead)
    }

    func describe(_ action: JSONValue) throws(ReplayError) -> (name: String, origin: String) {
        let decoded = try Self.decode(R.Action.self, action, with: decoder)
        return (decoded.name, decoded.origin)
    }

    private func encode(_ value: R.State) throws(ReplayError) -> JSONValue {
        do {
            return try encoder.encode(value)
        } catch {
            throw ReplayError("cannot encode \(R.State.self): \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, with decoder: JSONValueDecoder) throws(ReplayError) -> T {
        do {
            return try decoder.decode(type, from: value)
        } catch let error as DecodingError {
            throw ReplayError(DecodingFailure.describe(error, type: type, in: value))
        } catch {
            throw ReplayError("cannot decode \(type): \(error)")
        }
    }
}
