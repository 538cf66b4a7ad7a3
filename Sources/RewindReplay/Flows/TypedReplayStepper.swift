import RewindCore
import RewindJSON

/// A ``ReplayStepper`` over a reducer of known types: decodes each recorded value into them.
struct TypedReplayStepper<R: Reducer>: ReplayStepper where R.State: RecordableState, R.Action: RecordableAction {
    let reducer: R
    var state: R.State?
    private(set) var lastStepSendsActions = false
    /// Each step encodes a state: whether the type builds its own tree is asked once.
    let encoder = JSONTypedEncoder(R.State.self)
    let decoder = JSONValueDecoder()
    /// Each step decodes an action: whether the type reads its own tree is asked once.
    let actionDecoder = JSONTypedDecoder(R.Action.self)
    /// What the last step encoded: the next re-encodes only the elements that changed, and
    /// hashes only those. One stepper serves one chunk, on one thread.
    private let memo = JSONEncodingMemo()

    init(reducer: R) {
        self.reducer = reducer
    }

    mutating func reset(to value: JSONValue) throws(ReplayError) {
        state = try Self.decode(R.State.self, value, with: decoder)
    }

    mutating func step(_ action: JSONValue) throws(ReplayError) -> JSONValue {
        guard var current = state else { throw ReplayError(.noState, "the stepper has no state to start from") }
        let decoded = try Self.decode(R.Action.self, action) { try actionDecoder.decode(from: $0) }
        state = nil
        // Outputs come back as recorded actions too: any effect counts.
        lastStepSendsActions = !reducer.reduce(into: &current, action: decoded).isNone
        state = current
        return try encode(current, memo: memo)
    }

    func digest(ofLastStep state: JSONValue) -> StateDigest {
        memo.digest(of: state)
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

    private func encode(_ value: R.State, memo: JSONEncodingMemo? = nil) throws(ReplayError) -> JSONValue {
        do {
            return try memo.map { try encoder.encode(value, memo: $0) } ?? encoder.encode(value)
        } catch {
            throw ReplayError(.cannotEncode, "cannot encode \(R.State.self): \(error)", underlying: error)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, with decoder: JSONValueDecoder) throws(ReplayError) -> T {
        try decode(type, value) { try decoder.decode(type, from: $0) }
    }

    /// `decoding(value)`, its errors as replay errors.
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
