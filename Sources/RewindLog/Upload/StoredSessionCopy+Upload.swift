import Foundation
import RewindCore
import RewindJSON

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
    /// out of `limits`, malformed, or a block does not match its checksum. What the blocks
    /// hold is checked by ``checkBlocks()``.
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
    }

    /// Refuses the copy when one of its blocks does not read as its row says: each is inflated
    /// (never past its stated size) and its records counted against its steps, on every core,
    /// so that a block a collector acknowledges is one a reader can read.
    public func checkBlocks() async throws(UploadError) {
        let blocks = self.blocks
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, blocks.count))
        let problem = await withTaskGroup(of: (Int, String)?.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let validator = BlockValidator()
                    for index in stride(from: worker, to: blocks.count, by: workers) {
                        if let problem = validator.problem(with: blocks[index]) { return (index, problem) }
                    }
                    return nil
                }
            }
            var first: (Int, String)?
            for await found in group {
                if let found, found.0 < first?.0 ?? .max { first = found }
            }
            return first
        }
        if let (index, problem) = problem {
            let block = blocks[index]
            throw UploadError(.badChecksum, "the block of steps \(block.firstStep) through \(block.lastStep) matches its checksum but \(problem)")
        }
    }

    /// The step a session's next block starts at when `last` is the last step stored: the one
    /// after, past any gap (steps the recorder lost) that starts there.
    public static func step(after last: Int, gaps: [LoggedGap]) -> Int {
        var next = last + 1
        while let gap = gaps.first(where: { $0.steps.lowerBound == next }) { next = gap.steps.upperBound + 1 }
        return next
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

/// The JSON header of an upload; its keys are the protocol's (docs/collector.md).
private struct UploadHeader: Codable {
    struct Metadata: Codable {
        var app: String?
        var appVersion: String?
        var appBuild: String?
        var device: String?
        var os: String?
        var origin: String?
        var tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case app
            case appVersion = "app_version"
            case appBuild = "app_build"
            case device, os, origin, tags
        }

        var sessionMetadata: SessionMetadata {
            SessionMetadata(
                app: app, appVersion: appVersion, appBuild: appBuild, device: device, os: os,
                origin: origin.map(SessionMetadata.Origin.init(rawValue:)), tags: tags ?? [:])
        }
    }

    struct Gap: Codable {
        var firstStep: Int
        var lastStep: Int
        var reason: String

        enum CodingKeys: String, CodingKey {
            case firstStep = "first_step"
            case lastStep = "last_step"
            case reason
        }
    }

    var uuid: UUID
    var name: String?
    var flow: String
    var startedAt: Double
    var endedAt: Double?
    var formatVersion: Int
    var schemaVersion: Int
    var initialState: String
    var initialDigest: Int64
    var redactedPaths: String
    var metadata: Metadata
    var gaps: [Gap]

    enum CodingKeys: String, CodingKey {
        case uuid, name, flow
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case formatVersion = "format_version"
        case schemaVersion = "schema_version"
        case initialState = "initial_state"
        case initialDigest = "initial_digest"
        case redactedPaths = "redacted_paths"
        case metadata, gaps
    }

    init(_ copy: StoredSessionCopy) {
        let summary = copy.summary, meta = copy.metadata
        uuid = copy.id
        name = summary.name
        flow = summary.flow
        startedAt = summary.startedAt.timeIntervalSince1970
        endedAt = summary.endedAt?.timeIntervalSince1970
        formatVersion = summary.formatVersion
        schemaVersion = summary.schemaVersion
        initialState = copy.initialState
        initialDigest = copy.initialDigest
        redactedPaths = copy.redactedPaths
        metadata = Metadata(
            app: meta.app, appVersion: meta.appVersion, appBuild: meta.appBuild, device: meta.device, os: meta.os, origin: meta.origin?.rawValue,
            tags: meta.tags)
        gaps = copy.gaps.map { Gap(firstStep: $0.steps.lowerBound, lastStep: $0.steps.upperBound, reason: $0.reason) }
    }

    /// Refuses what no recorder writes, and what passes `limits`.
    func check(_ limits: UploadLimits) throws(UploadError) {
        func text(_ value: String?, _ what: String) throws(UploadError) {
            guard let value else { return }
            guard value.utf8.count <= limits.textBytes else {
                throw UploadError(.invalidValue, "the session's \(what) is longer than \(limits.textBytes) bytes")
            }
        }
        try text(name, "name")
        try text(flow, "flow")
        guard !flow.isEmpty else { throw UploadError(.invalidValue, "the session's flow is empty") }
        try text(metadata.app, "app")
        try text(metadata.appVersion, "app version")
        try text(metadata.appBuild, "app build")
        try text(metadata.device, "device")
        try text(metadata.os, "os")
        try text(metadata.origin, "origin")
        try text(redactedPaths, "redacted paths")
        let tags = metadata.tags ?? [:]
        guard tags.count <= 64 else { throw UploadError(.invalidValue, "the session has \(tags.count) tags; at most 64") }
        for (key, value) in tags {
            try text(key, "tag name")
            try text(value, "tag value")
        }
        guard startedAt.isFinite, endedAt?.isFinite ?? true else { throw UploadError(.invalidValue, "the session's times are not finite") }
        guard (4...LogSchema.formatVersion).contains(formatVersion), schemaVersion >= 0 else {
            throw UploadError(
                .invalidValue, "the session's log format (\(formatVersion)) is not one this collector stores (4 through \(LogSchema.formatVersion))")
        }
        // A reader checks the initial state against its digest: an upload is checked as it
        // will be read.
        guard let initial = try? JSONValue(parsing: initialState) else { throw UploadError(.invalidValue, "the session's initial state is not JSON") }
        guard initial.digest(by: StateDigest.Rule(logFormat: formatVersion)).databaseValue == initialDigest else {
            throw UploadError(.invalidValue, "the session's initial state does not match its digest")
        }
        guard gaps.count <= 10_000 else { throw UploadError(.invalidValue, "the session has \(gaps.count) gaps; at most 10,000") }
        var after = 0
        for gap in gaps {
            try text(gap.reason, "gap's reason")
            guard gap.firstStep > after, gap.lastStep >= gap.firstStep else {
                throw UploadError(.invalidValue, "the session's gaps are not in step order")
            }
            // Bounded before any arithmetic: the step after a gap ending at 2⁶³−1 trapped.
            guard gap.lastStep <= LogBounds.maximumStep else {
                throw UploadError(.invalidValue, "a gap of the session ends at step \(gap.lastStep), past \(LogBounds.maximumStep)")
            }
            after = gap.lastStep
        }
    }
}

/// Reads an upload's numbers and byte runs, refusing a body that ends too soon.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func bytes(_ count: Int) throws(UploadError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else { throw UploadError(.malformed, "the body ends too soon") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func uint8() throws(UploadError) -> UInt8 { try bytes(1)[0] }

    mutating func uint32() throws(UploadError) -> UInt32 {
        try bytes(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(UploadError) -> UInt64 {
        try bytes(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func int64() throws(UploadError) -> Int64 { Int64(bitPattern: try uint64()) }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
