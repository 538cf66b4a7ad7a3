import RewindJSON

/// What a recorded step asked for besides its state and outputs: the follow-up actions it sent
/// and the work it started (DESIGN.md section 16).
///
/// Stored as a JSON object, `{"runs":["auth.login",null],"sends":[{"retry":{}}]}`, an empty list
/// left out (docs/log-format.md). A session recorded before the log held them has none: its
/// events' `effects` is nil, "not recorded".
public struct RecordedEffects: Sendable, Equatable {
    /// The follow-up actions the step sent with `.send`, whole and in order.
    public var sends: [JSONValue]
    /// The work the step started with `.run`, in order: each one's name, nil for work given none.
    public var runs: [String?]

    public init(sends: [JSONValue] = [], runs: [String?] = []) {
        self.sends = sends
        self.runs = runs
    }

    /// Whether the step asked for no follow-up action and no work.
    public var isEmpty: Bool { sends.isEmpty && runs.isEmpty }

    /// The object a log stores; nil when there is nothing to store.
    public var json: JSONValue? {
        guard !isEmpty else { return nil }
        var pairs: [(String, JSONValue)] = []
        if !runs.isEmpty { pairs.append(("runs", .array(runs.map { $0.map(JSONValue.string) ?? .null }))) }
        if !sends.isEmpty { pairs.append(("sends", .array(sends))) }
        return .object(JSONObject(pairs))
    }

    /// Reads the object a log stores (``json``); `null` reads as nothing asked for.
    public init(json: JSONValue) throws(Malformed) {
        self.init()
        switch json {
        case .null:
            return
        case let .object(object):
            for (key, value) in object {
                switch (key, value) {
                case let ("runs", .array(names)):
                    runs = try names.map { name throws(Malformed) in
                        switch name {
                        case let .string(text): text
                        case .null: nil
                        default: throw Malformed()
                        }
                    }
                case let ("sends", .array(actions)):
                    sends = actions
                default:
                    throw Malformed()
                }
            }
        default:
            throw Malformed()
        }
    }

    /// A stored value that is not an object of `runs` (names or nulls) and `sends` (actions).
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var description: String { "its effects are not an object of runs and sends" }
    }
}
