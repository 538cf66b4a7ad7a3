import Foundation
import RewindJSON

/// The first of a recorder's two threads: encodes each queued step canonically and digests
/// its state, for the writer thread to diff and store.
///
/// Only the encoder thread touches it, one batch at a time.
final class RecorderEncoder<State: RecordableState, Action: RecordableAction>: @unchecked Sendable {
    private let session: SessionDescriptor
    private let configuration: RecorderConfiguration
    private let encoder = JSONValueEncoder()
    /// Arrays of the previous state, so that each step encodes only the elements that changed.
    private let memo = JSONEncodingMemo()
    private var actionNames = ActionNames()

    init(session: SessionDescriptor, configuration: RecorderConfiguration) {
        self.session = session
        self.configuration = configuration
    }

    /// Encodes `batch` into `output`; true once the batch held the session's end.
    func encode(_ batch: [Recorder<State, Action>.Item], into output: inout [RecorderWriter.Item]) -> Bool {
        for item in batch {
            switch item {
            case let .start(state, time):
                output.append(.begin(header(for: state, at: time)))
            case let .step(step):
                output.append(encode(step))
            case let .gap(steps):
                output.append(.gap(RecordingGap(steps: steps, reason: "the recorder's queue was full: the writer fell behind")))
            case .flush:
                output.append(.flush)
            case .finish:
                output.append(.finish)
                return true
            }
        }
        return false
    }

    /// Lets go of the last state's arrays (see `JSONEncodingMemo.detachFromLastValue()`): the
    /// store holds them too, so its next mutation would copy them on the dispatching thread.
    func releaseLastState() {
        memo.detachFromLastValue()
    }

    private func header(for state: State, at time: Date) -> SessionHeader? {
        do {
            let value = try encoder.encode(state, memo: memo)
            var paths = Set<String>()
            RedactionScanner.collect(in: value, at: "", into: &paths)
            return SessionHeader(
                name: session.name, flow: session.flow, startedAt: time, schemaVersion: session.schemaVersion,
                initialState: value, initialDigest: memo.digest(of: value), redactedPaths: paths
            )
        } catch {
            configuration.onError(error)
            return nil
        }
    }

    private func encode(_ step: Recorder<State, Action>.Step) -> RecorderWriter.Item {
        do {
            let state = try encoder.encode(step.state, memo: memo)
            let action = try encoder.encode(step.action)
            return .step(
                EncodedStep(
                    step: step.step, time: step.time, origin: step.action.origin,
                    actionName: actionNames.name(of: step.action, encoded: action), action: action, cause: step.cause,
                    outputs: try step.outputs.map { try encoder.encode($0) }, digest: memo.digest(of: state), state: state
                ))
        } catch {
            configuration.onError(error)
            return .gap(RecordingGap(steps: step.step...step.step, reason: "could not encode the step: \(error)"))
        }
    }
}
