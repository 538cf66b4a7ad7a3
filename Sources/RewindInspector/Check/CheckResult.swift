import RewindJSON

/// The outcome of one check: ok, a warning to read, or a problem that fails `rewind check`.
public struct CheckResult: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable, Comparable {
        case ok
        case warning
        case problem

        private var rank: Int {
            switch self {
            case .ok: 0
            case .warning: 1
            case .problem: 2
            }
        }

        public static func < (lhs: Status, rhs: Status) -> Bool {
            lhs.rank < rhs.rank
        }
    }

    /// What was checked: `integrity`, `steps`, `gaps`, `states`, `keyframes`, `secrets`.
    public var name: String
    public var status: Status
    /// One line on what was found.
    public var summary: String
    /// One line per finding, at most ``detailLimit``.
    public var details: [String]
    /// Findings left out of `details` beyond the limit.
    public var omitted: Int

    /// How many findings a result lists; the rest are counted in `omitted`.
    public static let detailLimit = 20

    public init(name: String, status: Status, summary: String, details: [String] = []) {
        self.name = name
        self.status = status
        self.summary = summary
        self.details = Array(details.prefix(Self.detailLimit))
        self.omitted = max(0, details.count - Self.detailLimit)
    }

    var json: JSONValue {
        [
            "status": .string(status.rawValue), "summary": .string(summary),
            "details": .array(details.map(JSONValue.string)), "omitted": .int(omitted),
        ]
    }
}
