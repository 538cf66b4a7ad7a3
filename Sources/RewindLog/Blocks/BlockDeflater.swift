import CZlib

/// Compresses the block a sink is writing, as one zlib stream kept open from commit to commit,
/// so that each commit compresses only the steps it adds.
///
/// At each commit the stream is flushed to a byte boundary (`Z_SYNC_FLUSH`) and the block is
/// stored as what it has so far followed by a closing tail: a final stored block holding the
/// JSON array's `]`, then the Adler-32 of everything inflated. The stored blob is then a whole
/// zlib stream, which `uncompress`, Python's `zlib` and the `sqlite3` shell's
/// `sqlar_uncompress` read; the running stream goes on from the byte boundary at the next
/// commit as if the tail had never been written.
///
/// Only the sink's writing connection touches it, inside its transactions.
final class BlockDeflater {
    /// zlib's stream; allocated once and reset for each block.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    /// The zlib header and the deflated bytes of every commit so far, each ending on a byte
    /// boundary.
    // Unchecked, as `EventBlockWriter`'s properties are, for the same reason and rule.
    @exclusivity(unchecked) private(set) var compressed: [UInt8] = []
    /// The inflated bytes so far, kept to store a block that does not shrink as it is.
    @exclusivity(unchecked) private(set) var inflated: [UInt8] = []
    /// How many of the inflated bytes went through the stream so far; the stream keeps their
    /// Adler-32 (`adler`), which the closing tail goes on from.
    private var deflatedCount = 0
    /// Where zlib writes, before what it wrote is appended to `compressed`: room made in
    /// `compressed` itself was zeroed first, a commit's worth of bytes for a few written.
    private let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16_384)

    /// zlib's fastest level: a login step compresses to about a sixth at about 28 instructions
    /// a byte; level 6 saves a fifth more for twice the time.
    private static let level: Int32 = 1

    init() {
        stream.initialize(to: z_stream())
        // Cannot fail but for memory: level, window and memory level are zlib's defaults.
        let status = deflateInit2_(
            stream, Self.level, Z_DEFLATED, MAX_WBITS, 6, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a stream (\(status))")
        compressed.reserveCapacity(16_384)
        inflated.reserveCapacity(65_536)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Starts a new block: the stream, the bytes and the checksum start again.
    func reset() {
        let status = deflateReset(stream)
        precondition(status == Z_OK, "zlib could not reset its stream (\(status))")
        compressed.removeAll(keepingCapacity: true)
        inflated.removeAll(keepingCapacity: true)
        deflatedCount = 0
        storeCount = 0
    }

    /// Whether nothing was added since the last ``reset()``.
    var isEmpty: Bool { inflated.isEmpty }

    /// Bytes added to the block so far, uncompressed.
    var size: Int { inflated.count }

    /// Adds `bytes` to the block; they are compressed at the next ``stored(closing:)``, all of
    /// a commit's steps in one call into zlib.
    func append(_ bytes: some Sequence<UInt8>) {
        inflated.append(contentsOf: bytes)
    }

    /// The block as stored so far, closed by `closing` (the JSON array's `]`): a whole zlib
    /// stream, or the inflated bytes as they are when compressing would not make them smaller
    /// (the stored `size` then equals the blob's length, as in SQLite's `sqlar` tables).
    func stored(closing: UInt8) -> [UInt8] {
        storeCount += 1
        if deflatedCount < inflated.count {
            inflated.withUnsafeBytes { bytes in run(UnsafeRawBufferPointer(rebasing: bytes[deflatedCount...]), flush: Z_SYNC_FLUSH) }
            deflatedCount = inflated.count
        }
        let total = inflated.count + 1
        // A final stored block of one byte (BFINAL 1, type 00, LEN 1, NLEN ~1), the byte, then
        // the Adler-32 of all the inflated bytes, big-endian.
        let withClosing = withUnsafeBytes(of: closing) { byte in
            UInt32(CZlib.adler32(stream.pointee.adler, byte.baseAddress?.assumingMemoryBound(to: Bytef.self), 1))
        }
        let tail: [UInt8] = [
            0x01, 0x01, 0x00, 0xFE, 0xFF, closing,
            UInt8(withClosing >> 24), UInt8(withClosing >> 16 & 0xFF), UInt8(withClosing >> 8 & 0xFF), UInt8(withClosing & 0xFF),
        ]
        guard compressed.count + tail.count < total else {
            var raw = inflated
            raw.append(closing)
            return raw
        }
        return compressed + tail
    }

    /// How many times the block was stored so far: a block committed a step at a time is
    /// made of many small deflate blocks, each with tables of its own.
    private(set) var storeCount = 0

    /// The whole block, closed by `closing`, compressed again in one pass at zlib's default
    /// level: for a block stored many times, half the size or less (measured: a block of 255
    /// steps committed one at a time, 8.9 KB against 4.1 KB).
    func compacted(closing: UInt8) -> [UInt8] {
        var text = inflated
        text.append(closing)
        var length = compressBound(UInt(text.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            text.withUnsafeBufferPointer { input in compress2(out.baseAddress, &length, input.baseAddress, UInt(input.count), Z_DEFAULT_COMPRESSION) }
        }
        guard status == Z_OK, Int(length) < text.count else { return text }
        output.removeLast(output.count - Int(length))
        return output
    }

    /// Deflates `input` into `compressed`, then flushes to a byte boundary.
    private func run(_ input: UnsafeRawBufferPointer, flush: Int32) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        while true {
            stream.pointee.next_out = output.baseAddress
            stream.pointee.avail_out = UInt32(output.count)
            let status = deflate(stream, flush)
            // Z_BUF_ERROR is "no progress", when the previous call filled `output` exactly and
            // nothing was left; Z_STREAM_ERROR, a stream in pieces, would store a damaged
            // block under a valid checksum.
            precondition(status == Z_OK || status == Z_BUF_ERROR, "zlib could not deflate (\(status))")
            let left = Int(stream.pointee.avail_out)
            compressed.append(contentsOf: UnsafeBufferPointer(rebasing: output[..<(output.count - left)]))
            // zlib's rule: done once a call leaves output room unused.
            if left > 0 { return }
        }
    }
}
