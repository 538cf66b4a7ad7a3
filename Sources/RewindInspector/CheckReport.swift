import RewindJSON
import RewindLog

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

/// The checks of one session.
public struct SessionCheck: Sendable, Equatable {
    public var session: SessionSummary
    /// Its gap markers, as the log holds them.
    public var gaps: [LoggedGap]
    /// `steps`, `gaps`, `states`, `keyframes` and `secrets`, in that order.
    public var results: [CheckResult]

    /// The worst status among the results.
    public var status: CheckResult.Status {
        results.map(\.status).max() ?? .ok
    }
}

/// Everything `rewind check` found in a log.
public struct CheckReport: Sendable, Equatable {
    /// The log's path.
    public var path: String
    /// SQLite's integrity check of the whole file.
    public var integrity: CheckResult
    public var sessions: [SessionCheck]

    /// Every result, the file's first.
    public var allResults: [CheckResult] {
        [integrity] + sessions.flatMap(\.results)
    }

    /// How many checks found a problem.
    public var problems: Int { allResults.count(where: { $0.status == .problem }) }
    /// How many checks ended with a warning (gap markers).
    public var warnings: Int { allResults.count(where: { $0.status == .warning }) }
    /// Whether no check found a problem; warnings do not fail the check.
    public var passed: Bool { problems == 0 }

    /// The report as one JSON object; documented in docs/cli/check.md.
    public var json: JSONValue {
        [
            "file": .string(path),
            "passed": .bool(passed),
            "problems": .int(problems),
            "warnings": .int(warnings),
            "integrity": integrity.json,
            "sessions": .array(sessions.map { check in
                [
                    "session": .int(check.session.number),
                    "name": check.session.name.map(JSONValue.string) ?? .null,
                    "flow": .string(check.session.flow),
                    "last_step": .int(check.session.lastStep),
                    "status": .string(check.status.rawValue),
                    "gaps": .array(check.gaps.map { gap in
                        [
                            "first_step": .int(gap.steps.lowerBound), "last_step": .int(gap.steps.upperBound),
                            "reason": .string(gap.reason),
                        ]
                    }),
                    "checks": .object(JSONObject(check.results.map { ($0.name, $0.json) })),
                ]
            }),
        ]
    }
}
