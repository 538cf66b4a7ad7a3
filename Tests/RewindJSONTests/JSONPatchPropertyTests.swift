import RewindJSON
import Testing

@Suite struct JSONPatchPropertyTests {
    /// For thousands of random trees and random edits of them, the patch between them turns
    /// one into the other, and survives the trip through its JSON text.
    @Test func patchBetweenTwoValuesTurnsOneIntoTheOther() throws {
        var random = RandomJSON(seed: 0x5EED_0F_2EC0)
        var failures: [String] = []
        var nonEmpty = 0
        for index in 0..<3_000 {
            let old = random.value()
            let new = random.mutated(old, edits: random.int(1...4))
            let patch = JSONPatch.between(old, new)
            if patch.isEmpty != (old == new) {
                failures.append("case \(index): emptiness \(patch.isEmpty) for \(old) -> \(new)")
            }
            if !patch.isEmpty { nonEmpty += 1 }
            do {
                let patched = try old.applying(patch)
                if patched != new {
                    failures.append("case \(index): \(old) -> \(new) gave \(patched) via \(patch.json)")
                }
                let stored = try JSONValue(parsing: patch.json.canonicalBytes)
                if try JSONPatch(json: stored) != patch {
                    failures.append("case \(index): \(patch.json) did not survive serialization")
                }
                if try JSONPatch(parsing: patch.json.canonicalString) != patch {
                    failures.append("case \(index): \(patch.json) was read back differently from its text")
                }
                var written: [UInt8] = []
                patch.canonicalBytes(into: &written)
                if written != patch.json.canonicalBytes {
                    failures.append("case \(index): written directly as \(String(decoding: written, as: UTF8.self)), not \(patch.json)")
                }
            } catch {
                failures.append("case \(index): \(error) for \(old) -> \(new) via \(patch.json)")
            }
        }
        #expect(failures.count == 0, "\(failures.first ?? "")")
        #expect(nonEmpty > 2_500)
    }

    /// Patches also chain: replaying the patch of each step rebuilds the last state.
    @Test func replayingAChainOfPatchesRebuildsTheLastState() throws {
        var random = RandomJSON(seed: 42)
        var state = random.value()
        var replayed = state
        for _ in 0..<500 {
            let next = random.mutated(state, edits: 1)
            try replayed.apply(JSONPatch.between(state, next))
            state = next
        }
        #expect(replayed == state)
    }
}
