import Foundation
import RewindJSON

/// The second of a recorder's two threads: diffs each encoded state against the previous one
/// (a keyframe every so often, and after anything was lost), and writes batches to the sink.
///
/// Only the writer thread touches it, one batch at a time.
final class RecorderWriter: @unchecked Sendable {
    /// What the encoder thread hands over.
    enum Item {
        /// The session's header, or nil when its initial state could not be encoded.
        case begin(SessionHeader?)
        case step(EncodedStep)
        case gap(RecordingGap)
        case flush
        case finish
    }

    enum Outcome { case running, finished }

    /// Released at the session's end, before `close()` returns: the caller's sink is then
    /// theirs alone, and closing or releasing it takes effect at once.
    private var sink: (any RecordingSink)?
    private let configuration: RecorderConfiguration
    private var pendingHeader: SessionHeader?
    private var sessionNumber: Int?
    private var previous = JSONValue.null
    private var needsKeyframe = true
    private var events: [RecordedEvent] = []
    private var gaps: [RecordingGap] = []
    private var newRedactedPaths: Set<String> = []
    private var knownRedactedPaths: Set<String> = []

    init(sink: any RecordingSink, configuration: RecorderConfiguration) {
        self.sink = sink
        self.configuration = configuration
    }

    /// Handles one batch; control items call `completeTicket` once everything before them is
    /// committed.
    func write(_ batch: [Item], completeTicket: () -> Void) -> Outcome {
        for item in batch {
            switch item {
            case let .begin(header):
                if let header {
                    knownRedactedPaths = header.redactedPaths
                    previous = header.initialState
                    pendingHeader = header
                }
                commit()
                completeTicket()
            case let .step(step):
                append(step)
            case let .gap(gap):
                gaps.append(gap)
                needsKeyframe = true
            case .flush:
                commit()
                completeTicket()
            case .finish:
                commit()
                if let sink, let sessionNumber {
                    report { try sink.endSession(sessionNumber) }
                }
                sink = nil
                completeTicket()
                return .finished
            }
        }
        commit()
        return .running
    }

    private func append(_ step: EncodedStep) {
        let record: RecordedEvent.StateRecord
        if needsKeyframe || step.step % configuration.keyframeInterval == 0 {
            record = .keyframe(step.state)
            needsKeyframe = false
            scanRedactions(in: step.state, at: "")
        } else {
            let patch = JSONPatch.between(previous, step.state)
            record = .patch(patch)
            for operation in patch.operations { scanRedactions(in: operation) }
        }
        scanRedactions(in: step.action, at: "action")
        previous = step.state
        events.append(
            RecordedEvent(
                step: step.step, time: step.time, origin: step.origin, actionName: step.actionName,
                action: step.action, cause: step.cause, outputs: step.outputs, digest: step.digest, state: record
            ))
    }

    /// Writes what is pending in one transaction; on failure the lost steps become a gap to
    /// write with the next batch, and the next step is a keyframe.
    private func commit() {
        guard let sink else { return }
        if sessionNumber == nil, let header = pendingHeader {
            if let error = report({ sessionNumber = try sink.beginSession(header) }) {
                markLost(because: error)
                return
            }
            pendingHeader = nil
        }
        guard let sessionNumber else {
            // The initial state could not be encoded (already reported through `onError`), so
            // there is no session to write into; keeping the steps would only grow memory.
            events.removeAll(keepingCapacity: true)
            return
        }
        guard !(events.isEmpty && gaps.isEmpty && newRedactedPaths.isEmpty) else { return }
        if let error = report({ try sink.append(events, gaps: gaps, redactedPaths: newRedactedPaths, to: sessionNumber) }) {
            markLost(because: error)
        } else {
            events.removeAll(keepingCapacity: true)
            gaps.removeAll()
            newRedactedPaths.removeAll()
        }
    }

    /// Turns the pending events into a gap, kept with the pending gaps so that the first
    /// write that succeeds (once the disk has room again) records it. A failure right after
    /// another one for the same reason extends its gap, so a full disk leaves one marker,
    /// not one per batch.
    private func markLost(because error: any Error) {
        if let first = events.first?.step, let last = events.last?.step {
            let reason = "the log could not be written (\(error))"
            if let previous = gaps.last, previous.reason == reason, previous.steps.upperBound + 1 == first {
                gaps[gaps.count - 1].steps = previous.steps.lowerBound...last
            } else {
                gaps.append(RecordingGap(steps: first...last, reason: reason))
            }
        }
        events.removeAll(keepingCapacity: true)
        needsKeyframe = true
    }

    /// Runs `body`; a failure goes to `onError` and is returned.
    @discardableResult
    private func report(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            configuration.onError(error)
            return error
        }
    }

    private func scanRedactions(in value: JSONValue, at path: String) {
        var found = Set<String>()
        RedactionScanner.collect(in: value, at: path, into: &found)
        for path in found where knownRedactedPaths.insert(path).inserted {
            newRedactedPaths.insert(path)
        }
    }

    private func scanRedactions(in operation: JSONPatch.Operation) {
        switch operation {
        case let .set(path, value):
            scanRedactions(in: value, at: RedactionScanner.pattern(of: path))
        case let .splice(path, _, values):
            for value in values { scanRedactions(in: value, at: RedactionScanner.pattern(of: path) + "[*]") }
        case .remove:
            break
        }
    }
}
