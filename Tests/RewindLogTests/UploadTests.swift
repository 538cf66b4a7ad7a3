import Foundation
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// An upload's body (docs/collector.md) read back as written, every damaged one refused, and
/// uploads stored into a log: a retry adds nothing, a block out of order or in conflict is
/// refused with nothing written, and the session ends once its last block is in.
@Suite struct UploadTests {
    /// A log of one 1,000-step session, and that session copied.
    private static func recorded(in folder: TemporaryDirectory) throws -> (String, StoredSessionCopy) {
        let path = folder.path("source.rewind")
        let recorder = Recorder<Int, Tick>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...1_000 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        let reader = try LogReader(path: path)
        return (path, try reader.storedCopy(of: try reader.session("1")))
    }

    @Test func aBodyReadsBackAsItWasWritten() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try Self.recorded(in: folder)
        #expect(copy.blocks.count >= 3)
        let read = try StoredSessionCopy(uploadBody: copy.uploadBody())
        #expect(read.id == copy.id && read.blocks == copy.blocks && read.gaps == copy.gaps)
        #expect(read.initialState == copy.initialState && read.initialDigest == copy.initialDigest && read.redactedPaths == copy.redactedPaths)
        #expect(read.metadata == copy.metadata && read.summary.name == "ticks" && read.summary.flow == "test")
        #expect(read.summary.startedAt == copy.summary.startedAt && read.summary.endedAt == copy.summary.endedAt)
    }

    /// The initial state is checked against its digest by the rule of the session's format:
    /// the committed recordings are of format 5, whose digests chain an array's elements, and a
    /// recorder's sessions now of format 6, which sums them.
    @Test func anInitialStateIsCheckedByTheRuleOfItsFormat() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lists.rewind")
        let recorder = Recorder<[Int], Tick>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "lists", flow: "test"))
        recorder.start(initialState: [1, 2, 3])
        recorder.record(.tick, state: [1, 2, 3, 4], step: 1)
        recorder.close()
        let reader = try LogReader(path: path)
        let recorded = try reader.storedCopy(of: try reader.session("1"))
        let formatFive = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("recordings/photos-happy-browse.rewind").path
        let older = try LogReader(path: formatFive)
        let committed = try older.storedCopy(of: try older.session("1"))
        #expect(recorded.summary.formatVersion == 6 && committed.summary.formatVersion == 5)
        for copy in [recorded, committed] {
            #expect(try StoredSessionCopy(uploadBody: copy.uploadBody()).initialDigest == copy.initialDigest)
            var other = copy
            other.summary.formatVersion = copy.summary.formatVersion == 5 ? 6 : 5
            #expect(throws: UploadError(.invalidValue, "the session's initial state does not match its digest")) {
                try StoredSessionCopy(uploadBody: other.uploadBody())
            }
        }
    }

    @Test func everyCutOfABodyIsRefusedAsMalformed() throws {
        let folder = try TemporaryDirectory()
        var (_, copy) = try Self.recorded(in: folder)
        copy.blocks = [copy.blocks[0]]
        let body = copy.uploadBody()
        for length in 0..<body.count {
            #expect(throws: UploadError.self) { try StoredSessionCopy(uploadBody: Array(body[..<length])) }
        }
        #expect(throws: UploadError(.malformed, "the body goes on past its last block")) { try StoredSessionCopy(uploadBody: body + [0]) }
    }

    /// Steps from a client are bounded before any arithmetic: a block ending at step 2⁶³−1
    /// followed by another, or a gap ending there, made the step after it overflow and trap
    /// the collector.
    @Test func stepsPastTheLogsBoundsAreRefusedBeforeAnyArithmetic() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try Self.recorded(in: folder)
        var endless = copy
        endless.blocks[0].lastStep = Int(Int64.max)
        #expect(
            throws: UploadError(
                .invalidValue, "the block of steps 1 through \(Int64.max) goes past step \(LogBounds.maximumStep) or its time is not one")
        ) { try StoredSessionCopy(uploadBody: endless.uploadBody()) }
        var gapped = copy
        gapped.gaps = [LoggedGap(steps: 1_001...Int(Int64.max), reason: "lost")]
        #expect(throws: UploadError(.invalidValue, "a gap of the session ends at step \(Int64.max), past \(LogBounds.maximumStep)")) {
            try StoredSessionCopy(uploadBody: gapped.uploadBody())
        }
        var farGap = copy
        farGap.gaps = [LoggedGap(steps: LogBounds.maximumStep...LogBounds.maximumStep, reason: "lost")]
        #expect(try StoredSessionCopy(uploadBody: farGap.uploadBody()).gaps == farGap.gaps)
    }

    /// A log refuses an upload to a session it holds as another app's, and writes nothing.
    @Test func aSessionHeldAsAnotherAppsIsRefused() throws {
        let folder = try TemporaryDirectory()
        var (_, copy) = try Self.recorded(in: folder)
        copy.metadata.app = "a"
        copy.blocks = [copy.blocks[0]]
        copy.summary.endedAt = nil
        let sink = try SQLiteSink(path: folder.path("collected.rewind"))
        defer { try? sink.close() }
        #expect(try sink.receive(copy).created)
        var other = copy
        other.metadata.app = "b"
        #expect(throws: UploadError(.otherApp, "the store holds session \(copy.id.uuidString) as another app's")) { try sink.receive(other) }
        other.metadata.app = nil
        #expect(throws: UploadError.self) { try sink.receive(other) }
        #expect(try sink.progress(of: copy.id) == ReceivedBlocks(storedThrough: copy.blocks[0].lastStep, added: 0, duplicates: 0, ended: false, created: false))
    }

    @Test func aBodyPastALimitIsRefusedAsTooLarge() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try Self.recorded(in: folder)
        let body = copy.uploadBody()
        #expect(throws: UploadError(.tooLarge, "the body is larger than 100 bytes")) {
            try StoredSessionCopy(uploadBody: body, limits: UploadLimits(bodyBytes: 100))
        }
        #expect(throws: UploadError(.tooLarge, "the body holds \(copy.blocks.count) blocks; at most 1 go in one")) {
            try StoredSessionCopy(uploadBody: body, limits: UploadLimits(blocks: 1))
        }
    }

    @Test func uploadsInBatchesBuildTheSessionOnceAndEndItWithTheLastBatch() throws {
        let folder = try TemporaryDirectory()
        let (source, copy) = try Self.recorded(in: folder)
        let path = folder.path("collected.rewind")
        let sink = try SQLiteSink(path: path)
        defer { try? sink.close() }
        var first = copy
        first.blocks = [copy.blocks[0]]
        // A batch before the last has no end time: an end time says the session ends with the
        // upload's last block.
        first.summary.endedAt = nil
        let one = try sink.receive(first)
        #expect(one == ReceivedBlocks(storedThrough: copy.blocks[0].lastStep, added: 1, duplicates: 0, ended: false, created: true))
        #expect(try sink.receive(first) == ReceivedBlocks(storedThrough: copy.blocks[0].lastStep, added: 0, duplicates: 1, ended: false, created: false))
        var skipping = copy
        skipping.blocks = [copy.blocks[2]]
        #expect(
            throws: UploadError(
                .outOfOrder,
                "the block of steps \(copy.blocks[2].firstStep) through \(copy.blocks[2].lastStep) does not follow step \(copy.blocks[0].lastStep); send from step \(copy.blocks[0].lastStep + 1)",
                storedThrough: copy.blocks[0].lastStep)
        ) { try sink.receive(skipping) }
        var conflicting = copy
        conflicting.blocks[0].data[conflicting.blocks[0].data.count - 1] ^= 1
        #expect(throws: UploadError.self) { try sink.receive(conflicting) }
        let rest = try sink.receive(copy)
        #expect(rest == ReceivedBlocks(storedThrough: 1_000, added: copy.blocks.count - 1, duplicates: 1, ended: true, created: false))
        let original = try LogReader(path: source)
        let received = try LogReader(path: path)
        let session = try received.session(copy.id.uuidString)
        #expect(session.eventCount == 1_000 && session.endedAt == copy.summary.endedAt)
        #expect(try received.state(of: session, at: 1_000) == original.state(of: try original.session("1"), at: 1_000))
        #expect(try received.storedCopy(of: session).blocks == copy.blocks)
    }

    @Test func aGroupCommitKeepsEachUploadAsItWouldBeAlone() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try Self.recorded(in: folder)
        let sink = try SQLiteSink(path: folder.path("collected.rewind"))
        defer { try? sink.close() }
        var late = copy
        late.id = UUID()
        late.blocks = [copy.blocks[1]]
        let results = try sink.receive(all: [copy, late, copy])
        #expect(try results[0].get() == ReceivedBlocks(storedThrough: 1_000, added: copy.blocks.count, duplicates: 0, ended: true, created: true))
        #expect(throws: UploadError.self) { try results[1].get() }
        #expect(try results[2].get() == ReceivedBlocks(storedThrough: 1_000, added: 0, duplicates: copy.blocks.count, ended: true, created: false))
        #expect(try LogReader(path: sink.path).sessions().map(\.id) == [copy.id], "the refused upload left no session")
    }

    @Test func manyUploadsAtOnceAreEachStoredWhole() async throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try Self.recorded(in: folder)
        let destination = try LogFileDestination(path: folder.path("collected.rewind"))
        let ids = (0..<40).map { _ in UUID() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask {
                    var upload = copy
                    upload.id = id
                    // Block by block, as an uploader of one block a batch sends them.
                    for (index, block) in copy.blocks.enumerated() {
                        upload.blocks = [block]
                        upload.summary.endedAt = index == copy.blocks.count - 1 ? copy.summary.endedAt : nil
                        _ = try await destination.receive(upload)
                    }
                }
            }
            try await group.waitForAll()
        }
        await destination.close()
        let reader = try LogReader(path: folder.path("collected.rewind"))
        let sessions = try reader.sessions()
        #expect(Set(sessions.compactMap(\.id)) == Set(ids))
        #expect(sessions.allSatisfy { $0.eventCount == 1_000 && $0.endedAt == copy.summary.endedAt })
        #expect(try reader.storedCopy(of: sessions[7]).blocks == copy.blocks)
    }

    @Test func checkingBlocksFindsOneThatDoesNotInflateToItsSize() async throws {
        let folder = try TemporaryDirectory()
        var (_, copy) = try Self.recorded(in: folder)
        try await copy.checkBlocks()
        copy.blocks[2].size += 1
        await #expect(
            throws: UploadError(
                .badChecksum,
                "the block of steps \(copy.blocks[2].firstStep) through \(copy.blocks[2].lastStep) matches its checksum but it does not inflate to its size, \(copy.blocks[2].size) bytes"
            )
        ) { try await copy.checkBlocks() }
    }
}
