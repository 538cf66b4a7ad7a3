import Foundation
import RewindJSON

/// The writer thread's side of a recorder: encodes, diffs and writes batches.
///
/// Only the writer thread touches it, one batch at a time.
final class RecorderWriter<State: RecordableState, Action: RecordableAction>: @unchecked Sendable {
    enum Outcome { case running, finished }

    private let sink: any RecordingSink
    private let session: SessionDescriptor
    private let configuration: RecorderConfiguration
    private let encoder = JSONValueEncoder()
    /// Arrays of the previous state, so that each step encodes only the elements that changed.
    private let memo = JSONEncodingMemo()
    private var pendingHeader: SessionHeader?
    private var sessionNumber: Int?
    private var previous = JSONValue.null
    private var needsKeyframe = true
    private var events: [RecordedEvent] = []
    private var gaps: [RecordingGap] = []
    private var newRedactedPaths: Set<String> = []
    private var knownRedactedPaths: Set<String> = []
    private var actionNames = ActionNames()

    init(sink: any RecordingSink, session: SessionDescriptor, configuration: RecorderConfiguration) {
        self.sink = sink
        self.session = session
        self.configuration = configuration
    }

    /// Handles one batch; control items complete their ticket once everything before them is
    /// committed.
    func write(_ batch: [Recorder<State, Action>.Item], completing queue: RecordingQueue<Recorder<State, Action>.Item>) -> Outcome {
        for item in batch {
            switch item {
            case let .start(state, time):
                start(state, at: time)
                commit()
                queue.completeTicket()
            case let .step(step):
                encode(step)
            case let .gap(steps):
                gaps.append(RecordingGap(steps: steps, reason: "the recorder's queue was full: the writer fell behind"))
                needsKeyframe = true
            case .flush:
                commit()
                queue.completeTicket()
            case .finish:
                commit()
                if let sessionNumber {
                    report { try sink.endSession(sessionNumber) }
                }
                queue.completeTicket()
                return .finished
            }
        }
        commit()
        return .running
    }

    private func start(_ state: State, at time: Date) {
        do {
            let value = try encoder.encode(state, memo: memo)
            var paths = Set<String>()
            RedactionScanner.collect(in: value, at: "", into: &paths)
            knownRedactedPaths = paths
            previous = value
            pendingHeader = SessionHeader(
                name: session.name, flow: session.flow, startedAt: time, schemaVersion: session.schemaVersion,
                initialState: value, initialDigest: value.digest, redactedPaths: paths
            )
        } catch {
            configuration.onError(error)
        }
    }

    private func encode(_ step: Recorder<State, Action>.Step) {
        do {
            let state = try encoder.encode(step.state, memo: memo)
            let action = try encoder.encode(step.action)
            let outputs = try step.outputs.map { try encoder.encode($0) }
            let record: RecordedEvent.StateRecord
            if needsKeyframe || step.step % configuration.keyframeInterval == 0 {
                record = .keyframe(state)
                needsKeyframe = false
                scanRedactions(in: state, at: "")
            } else {
                let patch = JSONPatch.between(previous, state)
                record = .patch(patch)
                for operation in patch.operations { scanRedactions(in: operation) }
            }
            scanRedactions(in: action, at: "action")
            previous = state
            events.append(RecordedEvent(
                step: step.step, time: step.time, origin: step.action.origin, actionName: actionNames.name(of: step.action, encoded: action),
                action: action, cause: step.cause, outputs: outputs, digest: memo.digest(of: state), state: record
            ))
        } catch {
            configuration.onError(error)
            gaps.append(RecordingGap(steps: step.step...step.step, reason: "could not encode the step: \(error)"))
            needsKeyframe = true
        }
    }

    /// Writes what is pending in one transaction; on failure the lost steps become a gap to
    /// write with the next batch, and the next step is a keyframe.
    private func commit() {
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
