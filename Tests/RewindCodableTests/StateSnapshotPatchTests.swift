import Foundation
import PhotoApp
import RewindCodable
import RewindCore
import Testing

/// The patch a recorder writes between two written states (`JSONCanonicalWriter.patch(from:to:)`)
/// turns the first state's tree into the second's, for random zoos and for every step of an app
/// session, and is empty exactly when the states are equal.
struct StateSnapshotPatchTests {
    private func snapshot<T: JSONTreeEncodable>(_ value: T) throws -> JSONStateSnapshot {
        var writer = JSONStateWriter()
        try value.writeJSON(to: &writer)
        return writer.snapshot
    }

    /// Checks the patch between each value and the next.
    private func expectPatchesTurnEachIntoTheNext<T: JSONTreeEncodable>(_ values: [T]) throws {
        var failures: [String] = []
        for (old, new) in zip(values, values.dropFirst()) {
            let before = try JSONValueEncoder().encode(old)
            let after = try JSONValueEncoder().encode(new)
            var writer = JSONCanonicalWriter()
            try writer.patch(from: try snapshot(old), to: try snapshot(new))
            let text = writer.withBytes { Array($0) }
            let patch = try JSONPatch(parsing: text)
            let patched = try before.applying(patch)
            if patched != after { failures.append("\(before) -> \(after) via \(String(decoding: text, as: UTF8.self)) gave \(patched)") }
            if patch.isEmpty != (before == after) { failures.append("empty \(patch.isEmpty) for \(before) -> \(after)") }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, the first: \(failures.first ?? "")")
    }

    @Test func randomZoosPatchIntoEachOther() throws {
        var generator = ZooGenerator(seed: 77)
        let zoos = (0..<800).map { _ in generator.zoo() }
        try expectPatchesTurnEachIntoTheNext(zoos)
        // Neighbours that differ in one member, the usual step.
        var stepped: [Zoo] = []
        for zoo in zoos.prefix(200) {
            var next = zoo
            next.text = zoo.text + "!"
            stepped += [zoo, next]
        }
        try expectPatchesTurnEachIntoTheNext(stepped)
    }

    /// Without digests (an action's, which are never stored), the text and the structure are
    /// the same and every digest is 0.
    @Test func writesTheSameTextWithoutDigests() throws {
        var generator = ZooGenerator(seed: 5)
        var writer = JSONStateWriter()
        for _ in 0..<200 {
            let zoo = generator.zoo()
            writer.reset()
            try zoo.writeJSON(to: &writer)
            let digested = writer.snapshot
            writer.reset(takingDigests: false)
            try zoo.writeJSON(to: &writer)
            let plain = writer.snapshot
            #expect(plain.text == digested.text)
            #expect(plain.nodes.map(\.digest).allSatisfy { $0 == 0 })
            var undigested = digested.nodes
            for index in undigested.indices { undigested[index].digest = 0 }
            #expect(plain.nodes == undigested)
            #expect(digested.digest == (try JSONValueEncoder().encode(zoo)).digest)
        }
    }

    @Test(arguments: [
        (#"{"$redacted":3}"#, true),
        (#"[1,{"a":{"$redacted":0}}]"#, true),
        (#""$redacted""#, true),
        (#"{"$redacte":1,"redacted":2}"#, false),
        (#"{"x":"$redacted"}"#, true),
        (#"{"$redacted"#, false),
        (#""""""""#, false),
        ("", false),
    ])
    func findsAQuotedKeyAnywhere(text: String, found: Bool) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer { JSONStateSnapshot.contains("\"$redacted\"", in: $0) } == found)
    }

    @Test func everyStepOfAnAppSessionPatchesIntoTheNext() async throws {
        let sink = InMemorySink()
        await RandomSession(flow: "app", seed: 11, steps: 600)!.run(host: RecordingHost(sink: sink), start: Date(timeIntervalSince1970: 0))
        let session = try #require(sink.sessions.first)
        let decoder = JSONValueDecoder()
        let states = try session.events.compactMap { event in try session.state(at: event.step).map { try decoder.decode(AppState.self, from: $0) } }
        #expect(states.count == session.events.count)
        try expectPatchesTurnEachIntoTheNext(states)
    }
}
