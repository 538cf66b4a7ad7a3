import Foundation
import GRDB
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// How a session's steps are stored in blocks (format 3): whole blocks however the steps are
/// committed, complete zlib streams, and the text itself where compressing does not pay.
@Suite struct BlockTests {
    /// The blocks of session 1: their steps, keyframe flag, stored and inflated lengths.
    private func blocks(_ path: String) throws -> [(first: Int, last: Int, keyframe: Int, stored: Int, size: Int)] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT first_step, last_step, keyframe, length(data) AS stored, size FROM event_block ORDER BY first_step")
                .map { ($0["first_step"], $0["last_step"], $0["keyframe"], $0["stored"], $0["size"]) }
        }
    }

    @Test func aSessionCommittedAStepAtATimeStillFillsWholeBlocks() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("steps.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<[String: Int], Tick>(sink: sink, session: .init(name: "steps", flow: "test"))
        recorder.start(initialState: ["count": 0])
        for step in 1...600 {
            recorder.record(.tick, state: ["count": step], step: step)
            recorder.flush()
        }
        recorder.close()
        try sink.close()

        // A keyframe every 256 steps starts a block; the open one was written 255 times over.
        let stored = try blocks(path)
        #expect(stored.map { [$0.first, $0.last, $0.keyframe] } == [[1, 255, 1], [256, 511, 1], [512, 600, 1]])
        #expect(stored.allSatisfy { $0.stored < $0.size / 4 }, "compressed to a quarter or less: \(stored)")
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.lastStep == 600 && session.eventCount == 600)
        for step in [1, 255, 256, 300, 511, 512, 600] {
            #expect(try reader.state(of: session, at: step) == ["count": .int(step)])
        }
    }

    @Test func aStoredBlockIsAWholeZlibStreamOfItsJSON() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("stream.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<[String: Int], Tick>(sink: sink, session: .init(name: "stream", flow: "test"))
        recorder.start(initialState: ["count": 0])
        // Several commits, each adding steps to the open block.
        for step in 1...40 {
            recorder.record(.tick, state: ["count": step], step: step)
            if step % 7 == 0 { recorder.flush() }
        }
        recorder.close()
        try sink.close()

        let block = try BlockSurgery(path: path).block(session: 1, holding: 1)
        let records = try block.records()
        #expect(records.count == 40)
        let time = try LogReader(path: path).events(of: LogReader(path: path).session(nil), steps: 1...1)[0].time.timeIntervalSince1970
        #expect(records.first?[0] == .int(Int((time * 1_000_000).rounded())), "its time in microseconds")
        #expect(records[1][5] == [["s", ["count"], 2]], "step 2 stores a patch")
        #expect(records[0].arrayCount == 7 && records[1].arrayCount == 6, "the keyframe's record holds a null patch, the others end at theirs")
    }

    @Test func aBlockThatDoesNotShrinkIsStoredAsItIs() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("tiny.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "tiny", flow: "test"))
        recorder.start(initialState: 0)
        recorder.record(.tick, state: 1, step: 1)
        recorder.close()
        try sink.close()
        let stored = try #require(try blocks(path).first)
        #expect(stored.stored == stored.size, "one short step: the JSON itself, which its length tells")
        #expect(try LogReader(path: path).state(of: LogReader(path: path).session(nil), at: 1) == 1)
    }
}

extension JSONValue {
    /// The elements of an array, or 0.
    var arrayCount: Int {
        if case let .array(elements) = self { elements.count } else { 0 }
    }

    /// The element at `index` of an array, or `null`.
    subscript(index: Int) -> JSONValue {
        if case let .array(elements) = self, elements.indices.contains(index) { elements[index] } else { .null }
    }
}
