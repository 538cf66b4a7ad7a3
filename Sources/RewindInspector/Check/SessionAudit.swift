import RewindJSON
import RewindLog

/// Audits one session from its stored rows, visited in step order: contiguity against the
/// gap markers, keyframes after gaps, reconstruction and digests, and secrets in clear.
///
/// It rebuilds each state itself rather than through ``LogReader/walk(_:steps:_:)``, so that
/// a hole, a patch that does not apply or an unreadable row is reported and the audit goes on
/// from the next keyframe instead of stopping at the first fault.
struct SessionAudit {
    let session: SessionSummary
    let gaps: [LoggedGap]
    let redaction: RedactionAudit

    /// The state after the last visited step; nil while it cannot be rebuilt.
    private var state: JSONValue?
    /// The digests of the parts of the states a patch left as they were, by the session's rule.
    private let digests: JSONDigestMemo
    /// The last stored step visited (0 before the first).
    private(set) var lastStep = 0
    private(set) var recorded = 0
    private(set) var keyframes = 0
    /// Findings per check.
    private(set) var missing: [String] = []
    private(set) var overlaps: [String] = []
    private(set) var stateProblems: [String] = []
    private(set) var keyframeProblems: [String] = []
    private(set) var secretProblems: [String] = []
    /// Rows whose checksum matched, rows written before checksums, and rows that do not match.
    private(set) var checkedRows = 0
    private(set) var uncheckedRows = 0
    private(set) var checksumProblems: [String] = []
    /// Where the current stretch of steps that cannot be rebuilt began, and why.
    private var lost: (first: Int, reason: String)?
    /// The ends of the gap markers, sorted, and how many of them lie before `lastStep`.
    private let gapEnds: [Int]
    private var gapEndsPassed = 0
    /// The gap markers not yet left behind, for finding recorded steps inside one.
    private var gapCursor = 0

    init(session: SessionSummary, gaps: [LoggedGap]) {
        self.session = session
        self.digests = JSONDigestMemo(rule: session.digestRule)
        // A gap marker whose row does not match its checksum covers nothing: it is reported.
        let trusted = gaps.filter { $0.rowCheck != .mismatch }
        self.gaps = trusted.sorted { $0.steps.lowerBound < $1.steps.lowerBound }
        self.redaction = RedactionAudit(patterns: session.redactedPaths)
        self.gapEnds = trusted.map(\.steps.upperBound).sorted()
        count(session.rowCheck, "the session's row")
        if let damage = session.damage {
            let detail = damage.message.hasPrefix("the log is damaged: ") ? String(damage.message.dropFirst("the log is damaged: ".count)) : damage.message
            stateProblems.append("the session cannot be read whole: \(detail)")
        }
        for gap in gaps {
            count(
                gap.rowCheck,
                gap.rowCheck == .mismatch ? "a gap marker's row" : "the gap marker of steps \(gap.steps.lowerBound) through \(gap.steps.upperBound)")
        }
    }

    /// Counts a row by how it compared with its checksum; `what` names it in a problem.
    private mutating func count(_ check: RowCheck, _ what: @autoclosure () -> String) {
        switch check {
        case .verified: checkedRows += 1
        case .unchecked: uncheckedRows += 1
        case .mismatch: checksumProblems.append("\(what()) does not match its checksum")
        }
    }

    /// Starts from the stored initial state and its digest (step 0).
    mutating func start(_ initial: Result<(state: JSONValue, digest: StateDigest), LogError>) {
        switch initial {
        case .success(let record):
            let (value, digest) = (record.state, record.digest)
            state = value
            let rebuilt = digests.digest(of: value)
            if rebuilt != digest {
                stateProblems.append("step 0 (the initial state): stored digest \(digest), its state's digest is \(rebuilt)")
            }
            for path in redaction.clearValues(inState: value) {
                secretProblems.append("step 0 (the initial state): a clear value at \(path)")
            }
        case .failure(let error):
            stateProblems.append(error.description)
            lose(from: 1, "the initial state cannot be read")
        }
    }

    /// Audits the next stored row.
    mutating func visit(_ stored: StoredStep) {
        let step = stored.step
        // A block's checksum, and any damage that keeps it from being read, are counted and
        // reported once, at its first step.
        let startsItsBlock = stored.block.map { $0.lowerBound == step } ?? true
        if let block = stored.block {
            if startsItsBlock { count(stored.rowCheck, "steps \(block.lowerBound) through \(block.upperBound): the stored block") }
        } else {
            count(stored.rowCheck, "step \(step): the stored row")
        }
        guard LogReader.stepNumbers.contains(step) else {
            // A number no recorder writes (0, −5, 2⁶³−1): reported, but it makes no hole.
            if case .failure(let error) = stored.event { stateProblems.append(error.description) }
            return
        }
        if step > lastStep + 1 { recordHole(lastStep + 1...step - 1) }
        checkNotInsideGap(step)
        var followsGap = false
        while gapEndsPassed < gapEnds.count, gapEnds[gapEndsPassed] < step {
            followsGap = true
            gapEndsPassed += 1
        }
        defer {
            lastStep = step
            recorded += 1
        }
        let event: LoggedEvent
        switch stored.event {
        case .success(let value): event = value
        case .failure(let error):
            // A block that cannot be read fails each of its steps with the same message.
            if stateProblems.last != error.description { stateProblems.append(error.description) }
            lose(from: step, "step \(step) cannot be read")
            return
        }
        if followsGap && event.keyframe == nil {
            keyframeProblems.append("step \(step) is the first after a gap marker but stores a patch, not a keyframe")
        }
        var changed = true
        if let keyframe = event.keyframe {
            keyframes += 1
            closeLostStretch(through: step - 1)
            state = keyframe
        } else if let patch = event.patch {
            changed = !patch.isEmpty
            apply(patch, at: step)
        } else {
            stateProblems.append("step \(step) stores neither a keyframe nor a patch")
            lose(from: step, "step \(step) stores no state")
        }
        if let state {
            let rebuilt = digests.digest(of: state)
            if rebuilt != event.digest {
                stateProblems.append("step \(step): stored digest \(event.digest), the rebuilt state's digest is \(rebuilt)")
            }
            if changed {
                for path in redaction.clearValues(inState: state) {
                    secretProblems.append("step \(step): a clear value at \(path)")
                }
            }
        }
        for path in redaction.clearValues(inAction: event.action) {
            secretProblems.append("step \(step): a clear value at \(path)")
        }
        for (index, output) in event.outputs.enumerated() {
            for path in redaction.clearValues(inAction: output) {
                secretProblems.append("step \(step): a clear value at outputs[\(index)]\(path.dropFirst("action".count))")
            }
        }
        for (index, sent) in (event.effects?.sends ?? []).enumerated() {
            for path in redaction.clearValues(inAction: sent) {
                secretProblems.append("step \(step): a clear value at effects.sends[\(index)]\(path.dropFirst("action".count))")
            }
        }
    }

    /// Ends the audit: a stretch that could not be rebuilt up to the last step is reported.
    mutating func finish() {
        closeLostStretch(through: lastStep)
    }

    private mutating func apply(_ patch: JSONPatch, at step: Int) {
        guard state != nil else { return }
        guard step == lastStep + 1 else {
            lose(from: step, "step \(step) stores a patch but step \(step - 1) is missing")
            return
        }
        do {
            try state?.apply(patch)
        } catch {
            lose(from: step, "the patch of step \(step) does not apply (\(error))")
        }
    }

    private mutating func lose(from step: Int, _ reason: String) {
        state = nil
        if lost == nil { lost = (step, reason) }
    }

    private mutating func closeLostStretch(through last: Int) {
        guard let stretch = lost else { return }
        lost = nil
        guard last >= stretch.first else { return }
        let steps = last == stretch.first ? "step \(last)" : "steps \(stretch.first) through \(last)"
        stateProblems.append("\(steps) cannot be rebuilt: \(stretch.reason)")
    }

    /// Reports the parts of `hole` that no gap marker covers.
    private mutating func recordHole(_ hole: ClosedRange<Int>) {
        var cursor = hole.lowerBound
        for gap in gaps where gap.steps.overlaps(hole) {
            if gap.steps.lowerBound > cursor {
                missing.append(Self.describe(cursor...gap.steps.lowerBound - 1))
            }
            cursor = max(cursor, gap.steps.upperBound + 1)
            if cursor > hole.upperBound { return }
        }
        missing.append(Self.describe(cursor...hole.upperBound))
    }

    private mutating func checkNotInsideGap(_ step: Int) {
        while gapCursor < gaps.count, gaps[gapCursor].steps.upperBound < step { gapCursor += 1 }
        for gap in gaps[gapCursor...] {
            guard gap.steps.lowerBound <= step else { break }
            if gap.steps.contains(step) {
                overlaps.append(
                    "step \(step) is recorded but the gap marker of steps \(gap.steps.lowerBound) through \(gap.steps.upperBound) says it is missing")
            }
        }
    }

    private static func describe(_ steps: ClosedRange<Int>) -> String {
        // Not `steps.count`: a damaged step number such as 2⁶³−1 would overflow it.
        steps.lowerBound == steps.upperBound
            ? "step \(steps.lowerBound) is missing and no gap marker covers it"
            : "steps \(steps.lowerBound) through \(steps.upperBound) are missing and no gap marker covers them"
    }
}
