import RewindCore
import RewindJSON

/// Writes what a replayed step asked for as its block stores it (the canonical text of the
/// record's `outputs` and `effects`, docs/log-format.md), to be compared with the recorded
/// bytes: a step that still asks for what it recorded is matched without parsing either side.
///
/// Parsing the recorded outputs and effects into trees, encoding the replayed ones into trees
/// and comparing them made a replay of 100,000 random login steps (a step in ten has some) 8 %
/// slower than this (hyperfine). Bytes that differ (a changed behaviour, or a value two writers
/// spell differently) go to that comparison, which decides. One writer serves one stepper, on
/// one thread.
@usableFromInline
final class BehaviourWriter {
    // Unchecked, as the digester's writer is: one thread touches it, and no method passes it
    // inout to code that could reach this object again.
    @usableFromInline @exclusivity(unchecked) var writer = JSONStateWriter()
    @usableFromInline var outputs: [UInt8] = []
    @usableFromInline var effects: [UInt8] = []

    @usableFromInline
    init() {}

    /// Whether `summary`, its actions written by `type`'s own writer, is written as `outputs`
    /// and `effects` are (nil for none); false when they differ or an action cannot be written.
    ///
    /// Inlinable, as the stepper is, so that it is compiled for the app's action type:
    /// unspecialized, it looked up generic metadata at each call.
    @inlinable
    func matches<Action>(
        _ summary: EffectSummary<Action>, as type: (any JSONTreeEncodable.Type)?, outputs recordedOutputs: UnsafeRawBufferPointer?,
        effects recordedEffects: UnsafeRawBufferPointer?
    ) -> Bool {
        guard let type else { return false }
        do {
            outputs.removeAll(keepingCapacity: true)
            if !summary.outputs.isEmpty { try writeList(summary.outputs, as: type, into: &outputs) }
            effects.removeAll(keepingCapacity: true)
            if !summary.sends.isEmpty || !summary.runs.isEmpty {
                effects.append(UInt8(ascii: "{"))
                if !summary.runs.isEmpty {
                    effects.append(contentsOf: #""runs":"#.utf8)
                    JSONValue.array(summary.runs.map { $0.map(JSONValue.string) ?? .null }).canonicalBytes(into: &effects)
                }
                if !summary.sends.isEmpty {
                    if !summary.runs.isEmpty { effects.append(UInt8(ascii: ",")) }
                    effects.append(contentsOf: #""sends":"#.utf8)
                    try writeList(summary.sends, as: type, into: &effects)
                }
                effects.append(UInt8(ascii: "}"))
            }
        } catch {
            return false
        }
        return Self.same(outputs, recordedOutputs) && Self.same(effects, recordedEffects)
    }

    /// `[a,b]`, each action by its type's writer.
    @inlinable
    func writeList<Action>(_ actions: [Action], as type: any JSONTreeEncodable.Type, into buffer: inout [UInt8]) throws {
        buffer.append(UInt8(ascii: "["))
        for (index, action) in actions.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            writer.reset(takingDigests: false)
            try type.writeJSON(of: action, to: &writer)
            writer.text.withBytes { buffer.append(contentsOf: $0) }
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Whether `written` is `recorded`, byte for byte; nothing recorded is nothing written.
    @inlinable
    static func same(_ written: [UInt8], _ recorded: UnsafeRawBufferPointer?) -> Bool {
        guard let recorded, !recorded.isEmpty else { return written.isEmpty }
        return written.withUnsafeBytes { $0.elementsEqual(recorded) }
    }
}
