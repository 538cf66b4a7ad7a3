import Foundation
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// Copies of a session received into a log, as a collector stores uploads: a retry adds
/// nothing, a block out of order or in conflict is refused with nothing written, the session
/// ends once its last block is in, and a block that does not read as its row says is found.
@Suite struct ReceiveTests {
    @Test func aSessionHeldAsAnotherAppsIsRefused() throws {
        let folder = try TemporaryDirectory()
        var (_, copy) = try TickSession.recorded(in: folder)
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

    @Test func uploadsInBatchesBuildTheSessionOnceAndEndItWithTheLastBatch() throws {
        let folder = try TemporaryDirectory()
        let (source, copy) = try TickSession.recorded(in: folder)
        let path = folder.path("collected.rewind")
        let sink = try SQLiteSink(path: path)
        defer { try? sink.close() }
        var first = copy
        first.blocks = [copy.blocks[0]]
        // A batch before the last has no end time: an end time says the session ends with the
        // upload's last block.
        first.summary.endedAt = nil
        let one = try sink.receive(first)
        #expect(
            one
                == ReceivedBlocks(
                    storedThrough: copy.blocks[0].lastStep, added: 1, duplicates: 0, ended: false, created: true, steps: copy.blocks[0].lastStep, changed: true)
        )
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
        #expect(
            rest
                == ReceivedBlocks(
                    storedThrough: 1_000, added: copy.blocks.count - 1, duplicates: 1, ended: true, created: false, steps: 1_000 - copy.blocks[0].lastStep,
                    changed: true))
        let original = try LogReader(path: source)
        let received = try LogReader(path: path)
        let session = try received.session(copy.id.uuidString)
        #expect(session.eventCount == 1_000 && session.endedAt == copy.summary.endedAt)
        #expect(try received.state(of: session, at: 1_000) == original.state(of: try original.session("1"), at: 1_000))
        #expect(try received.storedCopy(of: session).blocks == copy.blocks)
    }

    @Test func aGroupCommitKeepsEachUploadAsItWouldBeAlone() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try TickSession.recorded(in: folder)
        let sink = try SQLiteSink(path: folder.path("collected.rewind"))
        defer { try? sink.close() }
        var late = copy
        late.id = UUID()
        late.blocks = [copy.blocks[1]]
        let results = try sink.receive(all: [copy, late, copy])
        #expect(
            try results[0].get()
                == ReceivedBlocks(storedThrough: 1_000, added: copy.blocks.count, duplicates: 0, ended: true, created: true, steps: 1_000, changed: true))
        #expect(throws: UploadError.self) { try results[1].get() }
        #expect(try results[2].get() == ReceivedBlocks(storedThrough: 1_000, added: 0, duplicates: copy.blocks.count, ended: true, created: false))
        #expect(try LogReader(path: sink.path).sessions().map(\.id) == [copy.id], "the refused upload left no session")
    }

    @Test func manyUploadsAtOnceAreEachStoredWhole() async throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try TickSession.recorded(in: folder)
        let destination = try LogFileStore(writingTo: folder.path("collected.rewind"))
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
        var (_, copy) = try TickSession.recorded(in: folder)
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
