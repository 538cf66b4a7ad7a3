import Foundation
import RewindJSON

/// Recorded steps as canonical JSON text, one buffer for a whole batch: what a recorder hands
/// a sink (``RecordingSink/append(_:gaps:redactedPaths:to:)-(RecordedTexts,_,_,_)``).
///
/// A step's action, outputs, effects and state (its whole state at a keyframe, else its patch) are
/// written once, by the recorder's threads, and a sink that stores text (the SQLite log)
/// copies them as they are; a sink that keeps values reads them back
/// (``RecordedTexts/events()``). Writing them once cost a recorder less than building their
/// trees and serializing them in the sink.
public struct RecordedTexts: Sendable {
    /// One step: its values, and where its texts are in ``text``.
    public struct Step: Sendable, Equatable {
        public var step: Int
        public var time: Date
        public var origin: String
        public var actionName: String
        public var cause: Int?
        public var digest: StateDigest
        /// Whether ``state`` holds the whole state; else the patch from the previous step's.
        public var isKeyframe: Bool
        /// The action's canonical JSON.
        public var action: Range<Int>
        /// A JSON array of the outputs (whole actions); empty when there are none.
        public var outputs: Range<Int>
        /// The follow-up actions sent and the work started (``RecordedEffects/json``); empty
        /// when there are none.
        public var effects: Range<Int>
        /// The whole state or the patch, canonical JSON (see `isKeyframe`).
        public var state: Range<Int>
    }

    /// The texts of every step, one after another.
    public private(set) var text: [UInt8] = []
    public private(set) var steps: [Step] = []

    public init() {}

    public var isEmpty: Bool { steps.isEmpty }

    /// Empties the batch, keeping its buffers.
    public mutating func removeAll() {
        text.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
    }

    /// Adds a step whose texts `write` appends to ``text``, in the order action, outputs (or
    /// nothing), effects (or nothing), state; `write` returns where each ends.
    mutating func append(
        step: Int, time: Date, origin: String, actionName: String, cause: Int?, digest: StateDigest, isKeyframe: Bool,
        _ write: (inout [UInt8]) throws -> (actionEnd: Int, outputsEnd: Int, effectsEnd: Int)
    ) rethrows {
        let start = text.count
        let (actionEnd, outputsEnd, effectsEnd) = try write(&text)
        steps.append(
            Step(
                step: step, time: time, origin: origin, actionName: actionName, cause: cause, digest: digest, isKeyframe: isKeyframe,
                action: start..<actionEnd, outputs: actionEnd..<outputsEnd, effects: outputsEnd..<effectsEnd, state: effectsEnd..<text.count))
    }

    /// The text of `range`, valid during `body`.
    public func withText<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try text.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The steps as events, their texts read back into values.
    public func events() throws -> [RecordedEvent] {
        try steps.map { step in
            let outputs: [JSONValue]
            if step.outputs.isEmpty {
                outputs = []
            } else if case let .array(values) = try withText(step.outputs, { try JSONValue(parsing: $0) }) {
                outputs = values
            } else {
                outputs = []
            }
            let effects = step.effects.isEmpty ? RecordedEffects() : try RecordedEffects(json: try withText(step.effects) { try JSONValue(parsing: $0) })
            let state: RecordedEvent.StateRecord =
                step.isKeyframe
                ? .keyframe(try withText(step.state) { try JSONValue(parsing: $0) })
                : .patch(try withText(step.state) { try JSONPatch(parsing: $0) })
            return RecordedEvent(
                step: step.step, time: step.time, origin: step.origin, actionName: step.actionName,
                action: try withText(step.action) { try JSONValue(parsing: $0) }, cause: step.cause, outputs: outputs,
                effects: effects, digest: step.digest, state: state)
        }
    }
}

extension RecordingSink {
    /// Appends steps written as text: read back into events, for a sink that keeps values.
    public func append(_ texts: RecordedTexts, gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int) throws {
        try append(texts.events(), gaps: gaps, redactedPaths: redactedPaths, to: session)
    }
}
