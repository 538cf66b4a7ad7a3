import Foundation
import RewindCore
import RewindJSON
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

/// An upload's body (docs/collector.md) read back as written, and every damaged one refused
/// whole, with its reason, before anything of it is stored.
@Suite struct UploadFrameTests {
    @Test func aBodyReadsBackAsItWasWritten() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try TickSession.recorded(in: folder)
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
        let recorder = Recorder<[Int], TickSession.Tick>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "lists", flow: "test"))
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
        var (_, copy) = try TickSession.recorded(in: folder)
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
        let (_, copy) = try TickSession.recorded(in: folder)
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

    @Test func aBodyPastALimitIsRefusedAsTooLarge() throws {
        let folder = try TemporaryDirectory()
        let (_, copy) = try TickSession.recorded(in: folder)
        let body = copy.uploadBody()
        #expect(throws: UploadError(.tooLarge, "the body is larger than 100 bytes")) {
            try StoredSessionCopy(uploadBody: body, limits: UploadLimits(bodyBytes: 100))
        }
        #expect(throws: UploadError(.tooLarge, "the body holds \(copy.blocks.count) blocks; at most 1 go in one")) {
            try StoredSessionCopy(uploadBody: body, limits: UploadLimits(blocks: 1))
        }
    }
}
