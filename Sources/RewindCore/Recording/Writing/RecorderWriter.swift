import Foundation
import RewindJSON

/// The second of a recorder's two threads: diffs each encoded state against the previous one
/// (a keyframe every so often, and after anything was lost), and writes batches of text to the
/// sink (``RecordedTexts``).
///
/// Only the writer thread touches it, one batch at a time.
@usableFromInline
final class RecorderWriter: @unchecked Sendable {
    /// What the encoder thread hands over.
    @usableFromInline
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
    private var needsKeyframe = true
    private var keyframes: KeyframeSchedule
    // Unchecked: every step touches these, and their accesses were checked for exclusivity at
    // run time, 560 instructions a login step (callgrind). Only the writer thread touches
    // them, and no method passes one inout to code that could reach this object again.
    /// The last state stored: its text, or its tree, which a patch from the encoder updates in
    /// place; `.bytes` while it is unknown (see `lose(_:because:)`).
    @exclusivity(unchecked) private var previous = EncodedValue.tree(.null)
    @exclusivity(unchecked) private var texts = RecordedTexts()
    /// Writes the patches of states written as text.
    @exclusivity(unchecked) private var patchWriter = JSONCanonicalWriter()
    private var gaps: [RecordingGap] = []
    private var newRedactedPaths: Set<String> = []
    private var knownRedactedPaths: Set<String> = []

    init(sink: any RecordingSink, configuration: RecorderConfiguration) {
        self.sink = sink
        self.configuration = configuration
        keyframes = configuration.keyframes
    }

    /// Handles batches, in order, each committed; control items call `completeTicket` once
    /// everything before them is committed.
    ///
    /// A batch holds at most ``RecordingQueue/batchLimit`` steps, so a transaction does too,
    /// and the buffers of the texts stop growing early.
    func write(_ batches: [[Item]], completeTicket: () -> Void) -> Outcome {
        for batch in batches {
            if write(batch, completeTicket: completeTicket) == .finished { return .finished }
            commit()
        }
        return .running
    }

    private func write(_ batch: [Item], completeTicket: () -> Void) -> Outcome {
        for item in batch {
            switch item {
            case let .begin(header):
                if let header {
                    knownRedactedPaths = header.redactedPaths
                    previous = .tree(header.initialState)
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
        return .running
    }

    private func append(_ step: EncodedStep) {
        var state = step.state
        var knownPatch: JSONPatch?
        if case let .patch(patch) = state {
            // The encoder's patch from the last state: applied to this thread's own tree of it,
            // which is the state to store whole at a keyframe.
            guard let tree = applying(patch, at: step.step) else { return }
            state = .tree(tree)
            knownPatch = patch
        }
        var isKeyframe = keyframes.storesKeyframe(at: step.step, followingStoredStep: !needsKeyframe)
        // A patch is taken between two states written the same way: a change of way (a state
        // that grew past what is written as text) makes a keyframe.
        switch (previous, state) {
        case (.text, .text), (.tree, .tree): break
        default: isKeyframe = true
        }
        needsKeyframe = false
        if step.action.mayHoldPlaceholder { scanRedactions(in: step.action, at: "action") }
        texts.append(
            step: step.step, time: step.time, origin: step.origin, actionName: step.actionName, cause: step.cause, digest: step.digest,
            isKeyframe: isKeyframe
        ) { text in
            step.action.write(to: &text)
            let actionEnd = text.count
            if !step.outputs.isEmpty {
                text.append(UInt8(ascii: "["))
                for (index, output) in step.outputs.enumerated() {
                    if index > 0 { text.append(UInt8(ascii: ",")) }
                    output.write(to: &text)
                }
                text.append(UInt8(ascii: "]"))
            }
            let outputsEnd = text.count
            if !step.sends.isEmpty || !step.runs.isEmpty { Self.writeEffects(sends: step.sends, runs: step.runs, to: &text) }
            let effectsEnd = text.count
            defer { keyframes.stored(bytes: text.count - effectsEnd, keyframe: isKeyframe) }
            if isKeyframe {
                state.write(to: &text)
                if state.mayHoldPlaceholder { scanRedactions(in: state, at: "") }
            } else if let knownPatch {
                knownPatch.canonicalBytes(into: &text)
                for operation in knownPatch.operations { scanRedactions(in: operation) }
            } else {
                appendPatch(from: previous, to: state, to: &text)
            }
            return (actionEnd, outputsEnd, effectsEnd)
        }
        previous = state
    }

    /// The writer's tree of the last state with `patch`, the encoder's for step `step`, applied
    /// in place; nil when there is no such tree or the patch does not apply, and the step is
    /// marked as lost: so is every patch after it, until the encoder hands a tree over whole
    /// (at the next keyframe's step at the latest).
    private func applying(_ patch: JSONPatch, at step: Int) -> JSONValue? {
        guard case var .tree(tree) = previous else {
            lose(step, because: "the recorder lost the state this step's patch applies to")
            return nil
        }
        // Let go of the stored reference first, so that the tree is changed where it is.
        previous = .tree(.null)
        do {
            try tree.apply(patch)
            return tree
        } catch {
            configuration.onError(error)
            lose(step, because: "the recorder could not apply its own patch to the state before (\(error))")
            return nil
        }
    }

    /// Marks `step` as lost for `reason`, extending the last gap when the step before was lost
    /// the same way. There is no state to take a patch from (`previous` is `.bytes`) until
    /// a tree comes whole, which is stored as a keyframe.
    private func lose(_ step: Int, because reason: String) {
        if let last = gaps.last, last.steps.upperBound + 1 == step, case .bytes = previous {
            gaps[gaps.count - 1].steps = last.steps.lowerBound...step
        } else {
            gaps.append(RecordingGap(steps: step...step, reason: reason))
        }
        previous = .bytes([])
        needsKeyframe = true
    }

    /// Writes ``RecordedEffects/json``'s text of a step's sends and runs, not both empty.
    private static func writeEffects(sends: [EncodedValue], runs: [String?], to text: inout [UInt8]) {
        text.append(UInt8(ascii: "{"))
        if !runs.isEmpty {
            text.append(contentsOf: #""runs":"#.utf8)
            JSONValue.array(runs.map { $0.map(JSONValue.string) ?? .null }).canonicalBytes(into: &text)
        }
        if !sends.isEmpty {
            if !runs.isEmpty { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: #""sends":["#.utf8)
            for (index, action) in sends.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                action.write(to: &text)
            }
            text.append(UInt8(ascii: "]"))
        }
        text.append(UInt8(ascii: "}"))
    }

    /// Appends the patch from `old` to `new` (both text, or both trees) to `text`, and notes
    /// the redacted fields it sets.
    private func appendPatch(from old: EncodedValue, to new: EncodedValue, to text: inout [UInt8]) {
        switch (old, new) {
        case let (.text(before), .text(after)):
            patchWriter.reset()
            do {
                try patchWriter.patch(from: before, to: after)
            } catch {
                // Only a text that does not parse, which no writer writes, fails: diffed as trees.
                patchWriter.reset()
                patchWriter.patch(JSONPatch.between((try? before.value()) ?? .null, (try? after.value()) ?? .null))
            }
            patchWriter.append(to: &text)
            let patch = patchWriter.withBytes { bytes in
                JSONStateSnapshot.contains("\"$redacted\"", in: bytes) ? try? JSONPatch(parsing: bytes) : nil
            }
            for operation in patch?.operations ?? [] { scanRedactions(in: operation) }
        case let (.tree(before), .tree(after)):
            let patch = JSONPatch.between(before, after)
            patch.canonicalBytes(into: &text)
            for operation in patch.operations { scanRedactions(in: operation) }
        default:
            preconditionFailure("a patch between a text and a tree")
        }
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
            texts.removeAll()
            return
        }
        guard !(texts.isEmpty && gaps.isEmpty && newRedactedPaths.isEmpty) else { return }
        if let error = report({ try sink.append(texts, gaps: gaps, redactedPaths: newRedactedPaths, to: sessionNumber) }) {
            markLost(because: error)
        } else {
            texts.removeAll()
            gaps.removeAll()
            newRedactedPaths.removeAll()
        }
    }

    /// Turns the pending events into a gap, kept with the pending gaps so that the first
    /// write that succeeds (once the disk has room again) records it. A failure right after
    /// another one for the same reason extends its gap, so a full disk leaves one marker,
    /// not one per batch.
    private func markLost(because error: any Error) {
        if let first = texts.steps.first?.step, let last = texts.steps.last?.step {
            let reason = "the log could not be written (\(error))"
            if let previous = gaps.last, previous.reason == reason, previous.steps.upperBound + 1 == first {
                gaps[gaps.count - 1].steps = previous.steps.lowerBound...last
            } else {
                gaps.append(RecordingGap(steps: first...last, reason: reason))
            }
        }
        texts.removeAll()
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

    /// Notes the redacted fields of `value`, a tree at once, text parsed first.
    private func scanRedactions(in value: EncodedValue, at path: String) {
        guard let tree = try? value.tree() else { return }
        scanRedactions(in: tree, at: path)
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
