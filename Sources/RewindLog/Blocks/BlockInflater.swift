import CZlib

/// Inflates stored blocks into one buffer, reused from block to block.
///
/// A block's `size` says how long it is inflated; the data holds a zlib stream, or the bytes
/// themselves when its length equals `size` (as in SQLite's `sqlar` tables). Anything else (a
/// stream that does not inflate to exactly `size` bytes, a size out of bounds) is damage, which
/// the row's checksum almost always names first.
///
/// The stream is inflated raw, past its two-byte header, by one zlib stream reset for each
/// block: the Adler-32 at its end is not computed again, since the row's checksum covers every
/// stored byte already (it was 1.4 % of a replay), and no inflate state is allocated per block.
final class BlockInflater {
    /// The last block inflated.
    private(set) var bytes: [UInt8] = []
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    /// No block inflates past this: a recorder's largest is a few keyframes' worth, and a
    /// damaged `size` must not make a reader allocate without bound.
    static let maximumSize = 1 << 30

    /// A block that cannot be inflated as its row says.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() {
        stream.initialize(to: z_stream())
        // Cannot fail but for memory: a raw stream (negative window bits) of zlib's largest window.
        let status = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a stream (\(status))")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `data` into ``bytes``, which then holds exactly `size` bytes.
    func inflate(_ data: UnsafeRawBufferPointer, size: Int) throws(Failure) {
        guard (1...Self.maximumSize).contains(size) else {
            throw Failure(description: "its size, \(size), is not one a block can have")
        }
        bytes.removeAll(keepingCapacity: true)
        if data.count == size {
            bytes.append(contentsOf: data)
            return
        }
        // The zlib header: deflate, a window of at most 32 KB, no preset dictionary, and a
        // check that makes its two bytes a multiple of 31.
        guard data.count > 2, data[0] & 0x0F == 8, data[0] >> 4 <= 7, data[1] & 0x20 == 0, (UInt16(data[0]) << 8 | UInt16(data[1])) % 31 == 0
        else {
            throw Failure(description: "its data is not a zlib stream")
        }
        bytes.append(contentsOf: repeatElement(0, count: size))
        inflateReset(stream)
        let (status, left) = bytes.withUnsafeMutableBytes { output in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: data.baseAddress!.assumingMemoryBound(to: Bytef.self) + 2)
            stream.pointee.avail_in = UInt32(data.count - 2)
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(size)
            let status = CZlib.inflate(stream, Z_FINISH)
            return (status, Int(stream.pointee.avail_out))
        }
        guard status == Z_STREAM_END, left == 0 else {
            bytes.removeAll(keepingCapacity: true)
            let reason =
                status == Z_STREAM_END || status == Z_BUF_ERROR && left == 0
                ? "it does not inflate to its size, \(size) bytes" : "its data does not inflate (zlib error \(status))"
            throw Failure(description: reason)
        }
    }
}
