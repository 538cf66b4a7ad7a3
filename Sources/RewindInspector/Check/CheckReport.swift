import RewindJSON
import RewindLog

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
            "sessions": .array(
                sessions.map { check in
                    [
                        "session": .int(check.session.number),
                        "name": check.session.name.map(JSONValue.string) ?? .null,
                        "flow": .string(check.session.flow),
                        "last_step": .int(check.session.lastStep),
                        "status": .string(check.status.rawValue),
                        "gaps": .array(
                            check.gaps.map { gap in
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
