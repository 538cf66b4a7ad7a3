import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// The body of an upload to a collector, version 1 (`application/vnd.rewind.upload.v1`,
/// docs/collector.md): a session's header and some of its blocks as stored, still compressed,
/// each with the checksum a block of session number 0 has.
///
///     "RWB1"  u32 header length  header (JSON)  u32 block count
///     per block: i64 first step, i64 last step, u8 keyframe, f64 last time, i64 size,
///                i64 checksum, u32 data length, data
///
/// Little-endian throughout. A binary frame, not JSON: block data is most of an upload, and
/// base64 would add a third to it.
extension StoredSessionCopy {
    /// The media type of ``uploadBody()``.
    public static let uploadMediaType = "application/vnd.rewind.upload.v1"
    static let uploadMagic: [UInt8] = Array("RWB1".utf8)

    /// The copy as an upload's body.
    public func uploadBody() -> [UInt8] {
        let header = UploadHeader(self)
        // Encoding a struct of strings and numbers cannot fail.
        let json = (try? Self.headerEncoder.encode(header)) ?? Data()
        var body: [UInt8] = []
        body.reserveCapacity(json.count + 16 + blocks.reduce(0) { $0 + $1.data.count + 45 })
        body.append(contentsOf: Self.uploadMagic)
        body.appendLittleEndian(UInt32(json.count))
        body.append(contentsOf: json)
        body.appendLittleEndian(UInt32(blocks.count))
        for block in blocks {
            body.appendLittleEndian(Int64(block.firstStep))
            body.appendLittleEndian(Int64(block.lastStep))
            body.append(block.startsWithKeyframe ? 1 : 0)
            body.appendLittleEndian(block.lastTime.bitPattern)
            body.appendLittleEndian(Int64(block.size))
            body.appendLittleEndian(block.checksum(session: 0))
            body.appendLittleEndian(UInt32(block.data.count))
            body.append(contentsOf: block.data)
        }
        return body
    }

    /// Reads an upload's body, refusing it whole, with the reason, when anything in it is
    /// out of `limits`, malformed, or a block does not match its checksum, and when a reader
    /// would refuse its header (``StoredSessionCopy/checkHeader()``). What the blocks hold is
    /// checked by ``StoredSessionCopy/checkBlocks()``, which a collector may skip.
    public init(uploadBody body: [UInt8], limits: UploadLimits = .default) throws(UploadError) {
        guard body.count <= limits.bodyBytes else {
            throw UploadError(.tooLarge, "the body is larger than \(limits.bodyBytes) bytes")
        }
        var reader = ByteReader(body)
        guard try reader.bytes(4) == Self.uploadMagic else {
            throw UploadError(.malformed, "the body is not a Rewind upload (version 1): it does not start with RWB1")
        }
        let headerLength = Int(try reader.uint32())
        guard headerLength <= reader.remaining else { throw UploadError(.malformed, "the body ends too soon") }
        guard headerLength <= limits.headerBytes else { throw UploadError(.tooLarge, "the header is larger than \(limits.headerBytes) bytes") }
        let header: UploadHeader
        do {
            header = try JSONDecoder().decode(UploadHeader.self, from: Data(try reader.bytes(headerLength)))
        } catch let error as UploadError {
            throw error
        } catch {
            throw UploadError(.malformed, "the header is not the JSON of an upload: \(Self.reason(error))")
        }
        try header.check(limits)
        let count = Int(try reader.uint32())
        guard count <= limits.blocks else { throw UploadError(.tooLarge, "the body holds \(count) blocks; at most \(limits.blocks) go in one") }
        let gaps = header.gaps.map { LoggedGap(steps: $0.firstStep...$0.lastStep, reason: $0.reason) }
        var blocks: [Block] = []
        blocks.reserveCapacity(count)
        for _ in 0..<count {
            let first = Int(try reader.int64()), last = Int(try reader.int64())
            let keyframe = try reader.uint8()
            let lastTime = Double(bitPattern: try reader.uint64())
            let size = Int(try reader.int64())
            let checksum = try reader.int64()
            let length = Int(try reader.uint32())
            let data = try reader.bytes(length)
            guard first >= 1, last >= first, keyframe <= 1, lastTime.isFinite else {
                throw UploadError(.invalidValue, "a block's steps (\(first) through \(last)) or flags are not a block's")
            }
            // Bounded before any arithmetic: the step after a block ending at 2⁶³−1 trapped.
            guard last <= LogBounds.maximumStep, LogBounds.isTime(lastTime) else {
                throw UploadError(
                    .invalidValue, "the block of steps \(first) through \(last) goes past step \(LogBounds.maximumStep) or its time is not one")
            }
            guard size <= limits.blockSize else {
                throw UploadError(.tooLarge, "the block of steps \(first) through \(last) inflates to \(size) bytes; at most \(limits.blockSize)")
            }
            if let previous = blocks.last, first != Self.step(after: previous.lastStep, gaps: gaps) {
                throw UploadError(
                    .outOfOrder, "the block of steps \(first) through \(last) does not follow step \(previous.lastStep) (blocks go in step order)")
            }
            let block = Block(firstStep: first, lastStep: last, startsWithKeyframe: keyframe == 1, lastTime: lastTime, size: size, data: data)
            guard block.checksum(session: 0) == checksum else {
                throw UploadError(.badChecksum, "the block of steps \(first) through \(last) does not match its checksum")
            }
            blocks.append(block)
        }
        guard reader.isAtEnd else { throw UploadError(.malformed, "the body goes on past its last block") }
        let lastBlock = blocks.last
        let summary = SessionSummary(
            number: 0, name: header.name, flow: header.flow, startedAt: Date(timeIntervalSince1970: header.startedAt),
            endedAt: header.endedAt.map(Date.init(timeIntervalSince1970:)), formatVersion: header.formatVersion,
            schemaVersion: header.schemaVersion, eventCount: blocks.reduce(0) { $0 + $1.lastStep - $1.firstStep + 1 },
            lastStep: lastBlock?.lastStep ?? 0, lastTime: lastBlock.map { Date(timeIntervalSince1970: $0.lastTime) }, redactedPaths: [],
            id: header.uuid, metadata: header.metadata.sessionMetadata)
        self.init(
            summary: summary, id: header.uuid, metadata: header.metadata.sessionMetadata, initialState: header.initialState,
            initialDigest: header.initialDigest, redactedPaths: header.redactedPaths, blocks: blocks, gaps: gaps)
        try checkHeader()
    }

    private static let headerEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "it does not parse" : "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is invalid"
        default: "it does not parse"
        }
    }
}
