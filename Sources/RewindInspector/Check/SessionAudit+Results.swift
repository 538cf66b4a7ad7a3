import RewindCore
import RewindLog

extension SessionAudit {
    /// The session's results, once every row is visited and ``finish()`` called: `checksums`,
    /// `steps`, `gaps`, `states`, `keyframes`, `secrets`.
    var results: [CheckResult] {
        [checksumsResult, stepsResult, gapsResult, statesResult, keyframesResult, secretsResult]
    }

    private var checksumsResult: CheckResult {
        guard checksumProblems.isEmpty else {
            return CheckResult(
                name: "checksums", status: .problem, summary: "rows changed since they were written (their checksums do not match)",
                details: checksumProblems)
        }
        guard uncheckedRows == 0 else {
            return CheckResult(
                name: "checksums", status: .warning,
                summary: "\(Self.count(uncheckedRows, "row")) written before logs had checksums: unchecked"
                    + (checkedRows > 0 ? "; \(Self.count(checkedRows, "row")) match theirs" : ""))
        }
        return CheckResult(name: "checksums", status: .ok, summary: "every row matches its checksum (\(Self.count(checkedRows, "row")))")
    }

    private var stepsResult: CheckResult {
        guard missing.isEmpty else {
            return CheckResult(name: "steps", status: .problem, summary: "steps are missing with no gap marker to say why", details: missing)
        }
        guard recorded > 0 else {
            return CheckResult(name: "steps", status: .ok, summary: "no step recorded")
        }
        let covered = gaps.isEmpty ? ", none missing" : ", the others covered by gap markers"
        return CheckResult(name: "steps", status: .ok, summary: "\(Self.count(recorded, "step")) recorded of 1 through \(lastStep)\(covered)")
    }

    private var gapsResult: CheckResult {
        let listed = gaps.map { gap in
            let steps = gap.steps.count == 1 ? "step \(gap.steps.lowerBound)" : "steps \(gap.steps.lowerBound) through \(gap.steps.upperBound)"
            return "\(steps): \(gap.reason)"
        }
        guard overlaps.isEmpty else {
            return CheckResult(name: "gaps", status: .problem, summary: "gap markers contradict recorded steps", details: overlaps + listed)
        }
        guard !gaps.isEmpty else { return CheckResult(name: "gaps", status: .ok, summary: "no gap marker") }
        // What a log's retention removed is no loss: the session says so, and is sound. It is the
        // front on the device; a collector's copy also misses what the device removed between
        // two uploads.
        let trimmed = gaps.filter(\.isNotKept)
        let lostGaps = gaps.filter { !$0.isNotKept }
        let notKept =
            trimmed.isEmpty
            ? nil
            : "steps \(trimmed.map { "\($0.steps.lowerBound) through \($0.steps.upperBound)" }.joined(separator: " and ")) not kept, "
                + "as the log's retention keeps only the end of a session"
        guard !lostGaps.isEmpty else {
            return CheckResult(name: "gaps", status: .ok, summary: notKept ?? "no gap marker")
        }
        let lost = lostGaps.reduce(0) { $0 + $1.steps.count }
        return CheckResult(
            name: "gaps", status: .warning,
            summary: "\(Self.count(lostGaps.count, "gap marker")): \(Self.count(lost, "step")) not recorded, as the recorder said"
                + (notKept.map { "; \($0)" } ?? ""),
            details: listed
        )
    }

    private var statesResult: CheckResult {
        guard stateProblems.isEmpty else {
            return CheckResult(name: "states", status: .problem, summary: "states do not rebuild or do not match their digests", details: stateProblems)
        }
        return CheckResult(
            name: "states", status: .ok, summary: "every state rebuilds and matches its digest (\(Self.count(recorded + 1, "state")), step 0 included)")
    }

    private var keyframesResult: CheckResult {
        guard keyframeProblems.isEmpty else {
            return CheckResult(name: "keyframes", status: .problem, summary: "a step after a gap is not a keyframe", details: keyframeProblems)
        }
        let after = gaps.isEmpty ? "" : "; the first step after each gap is one"
        return CheckResult(name: "keyframes", status: .ok, summary: "\(Self.count(keyframes, "keyframe"))\(after)")
    }

    private var secretsResult: CheckResult {
        guard secretProblems.isEmpty else {
            return CheckResult(name: "secrets", status: .problem, summary: "redacted fields hold clear values", details: secretProblems)
        }
        guard !session.redactedPaths.isEmpty else {
            return CheckResult(name: "secrets", status: .ok, summary: "no redacted field")
        }
        let paths = session.redactedPaths.joined(separator: ", ")
        return CheckResult(name: "secrets", status: .ok, summary: "\(paths): a placeholder wherever present, at every step")
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
