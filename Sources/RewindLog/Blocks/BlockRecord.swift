import Foundation
import RewindCore
import RewindJSON

/// One step as a block stores it: a JSON array, the elements in this order, trailing `null`s
/// left out (docs/log-format.md):
///
///     [time, digest, origin, action_type, action, patch, keyframe, cause, outputs, effects]
///
/// `time` is microseconds since 1970, an integer; `digest` the state's digest as a signed
/// 64-bit integer; `action`, `patch`, `keyframe`, `outputs` and `effects` canonical JSON as
/// they are, not strings; `effects` only from format 5 (``RecordedEffects``); exactly one of `patch` and `keyframe`
/// is not `null`. A block is the JSON array of its steps' records, the first one at the
/// block's `first_step`, each record after the first on a line of its own (`,\n` between
/// them: a reader that wants only actions goes to the next line).
enum BlockRecord {
    /// The number of elements of a whole record.
    static let elementCount = 10

    /// Where each element is in a record.
    enum Element {
        static let time = 0, digest = 1, origin = 2, actionType = 3, action = 4, patch = 5, keyframe = 6, cause = 7, outputs = 8, effects = 9
    }

    /// Writes the record of `event`.
    static func write(_ event: RecordedEvent, to writer: inout JSONCanonicalWriter) {
        writeHead(time: event.time, digest: event.digest, origin: event.origin, actionName: event.actionName, to: &writer)
        writer.value(event.action)
        writer.byte(UInt8(ascii: ","))
        let isKeyframe: Bool
        switch event.state {
        case let .patch(patch):
            isKeyframe = false
            writer.patch(patch)
        case let .keyframe(state):
            isKeyframe = true
            writer.text("null,")
            writer.value(state)
        }
        let effects = event.effects?.json
        writeTail(afterKeyframe: isKeyframe, cause: event.cause, hasOutputs: !event.outputs.isEmpty, hasEffects: effects != nil, to: &writer) {
            $0.value(.array(event.outputs))
        } effects: {
            if let effects { $0.value(effects) }
        }
    }

    /// Writes the record of `step`, its texts copied from `texts`.
    static func write(_ step: RecordedTexts.Step, of texts: RecordedTexts, to writer: inout JSONCanonicalWriter) {
        writeHead(time: step.time, digest: step.digest, origin: step.origin, actionName: step.actionName, to: &writer)
        texts.withText(step.action) { writer.bytes($0) }
        writer.byte(UInt8(ascii: ","))
        if step.isKeyframe { writer.text("null,") }
        texts.withText(step.state) { writer.bytes($0) }
        writeTail(
            afterKeyframe: step.isKeyframe, cause: step.cause, hasOutputs: !step.outputs.isEmpty, hasEffects: !step.effects.isEmpty, to: &writer
        ) { writer in
            texts.withText(step.outputs) { writer.bytes($0) }
        } effects: { writer in
            texts.withText(step.effects) { writer.bytes($0) }
        }
    }

    /// Writes `[time,digest,"origin","action_type",`.
    private static func writeHead(time: Date, digest: StateDigest, origin: String, actionName: String, to writer: inout JSONCanonicalWriter) {
        writer.byte(UInt8(ascii: "["))
        writer.decimal(Int(microseconds(time.timeIntervalSince1970)))
        writer.byte(UInt8(ascii: ","))
        writer.decimal(Int(digest.databaseValue))
        writer.byte(UInt8(ascii: ","))
        writer.quoted(origin)
        writer.byte(UInt8(ascii: ","))
        writer.quoted(actionName)
        writer.byte(UInt8(ascii: ","))
    }

    /// Writes the cause, the outputs and the effects, up to the last there is, and closes the
    /// record: after a patch, the keyframe's place is kept by a `null`, as is any element's
    /// before one that follows.
    private static func writeTail(
        afterKeyframe: Bool, cause: Int?, hasOutputs: Bool, hasEffects: Bool, to writer: inout JSONCanonicalWriter,
        outputs: (inout JSONCanonicalWriter) -> Void, effects: (inout JSONCanonicalWriter) -> Void
    ) {
        if cause != nil || hasOutputs || hasEffects {
            if !afterKeyframe { writer.text(",null") }
            writer.byte(UInt8(ascii: ","))
            if let cause {
                writer.decimal(cause)
            } else {
                writer.text("null")
            }
            if hasOutputs || hasEffects {
                writer.byte(UInt8(ascii: ","))
                if hasOutputs { outputs(&writer) } else { writer.text("null") }
            }
            if hasEffects {
                writer.byte(UInt8(ascii: ","))
                effects(&writer)
            }
        }
        writer.byte(UInt8(ascii: "]"))
    }

    /// `seconds` since 1970 as the whole microseconds a record stores: exact for any time a
    /// clock gives (below 2⁵³ µs, year 2255), and written and read as an integer, which a
    /// double's shortest text is not.
    static func microseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1_000_000).rounded()
        // A time no reader accepts (LogBounds) is kept out of range rather than trapping here.
        return value.isFinite && abs(value) < 9e18 ? Int64(value) : .max
    }

    /// The seconds of a record's `microseconds`.
    static func seconds(_ microseconds: Int64) -> Double {
        Double(microseconds) / 1_000_000
    }
}
