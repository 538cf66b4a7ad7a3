import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// One 3,000-step session of a counter as a store is given it twice: copied from its log at
/// step 1,448 while it was recorded (its last block holds part of what the whole session's
/// block of those steps holds), then whole. What the tests of one way into a store send.
public struct GrownSession: Sendable {
    public let early: StoredSessionCopy
    public let whole: StoredSessionCopy
    /// A session of the same identity whose steps are others (its states doubled).
    public let disagreeing: StoredSessionCopy

    public static let earlySteps = 1_448
    public static let steps = 3_000

    /// Records the session into `folder`, each copy with `app` as its app.
    public init(in folder: TemporaryDirectory, app: String? = nil) throws {
        let path = folder.path("grown.rewind")
        let earlyPath = folder.path("grown-early.rewind")
        let recorder = Recorder<Int, TickSession.Tick>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "grown", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...Self.earlySteps { recorder.record(.tick, state: step, step: step) }
        recorder.flush()
        // The log as a copy of its file taken now would hold it: its file and its write-ahead log.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: earlyPath + suffix)
        }
        for step in Self.earlySteps + 1...Self.steps { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        let otherPath = folder.path("disagreeing.rewind")
        let other = Recorder<Int, TickSession.Tick>(sink: try SQLiteSink(path: otherPath), session: SessionDescriptor(name: "grown", flow: "test"))
        other.start(initialState: 0)
        for step in 1...Self.steps { other.record(.tick, state: 2 * step, step: step) }
        other.close()
        func copy(_ path: String) throws -> StoredSessionCopy {
            let reader = try LogReader(path: path)
            var copy = try reader.storedCopy(of: try reader.session("1"))
            copy.metadata.app = app
            return copy
        }
        early = try copy(earlyPath)
        whole = try copy(path)
        // What the cases are about: the early copy's last block is a shorter version of one of
        // the whole session's, not a block of its own (a recorder that cut a block at step
        // 1,448 would leave the older-copy cases testing duplicates alone).
        guard let last = early.blocks.last, let grown = whole.blocks.first(where: { $0.firstStep == last.firstStep }), grown.lastStep > last.lastStep
        else { throw BlockSurgeryError("the copy at step \(Self.earlySteps) ends with a whole block: record it at another step") }
        var disagreeing = try copy(otherPath)
        disagreeing.id = whole.id
        self.disagreeing = disagreeing
    }

    /// `block` with its last record replaced by the one before it: as many steps, other data.
    public static func changingLastRecord(of block: StoredSessionCopy.Block) throws -> StoredSessionCopy.Block {
        guard case var .array(records) = try JSONValue(parsing: try BlockSurgery.inflate(block.data, size: block.size)), records.count > 1 else {
            throw BlockSurgeryError("not an array of two records or more")
        }
        records[records.count - 1] = records[records.count - 2]
        let text = JSONValue.array(records).canonicalBytes
        var changed = block
        changed.size = text.count
        changed.data = BlockSurgery.Block.deflate(text)
        return changed
    }
}
