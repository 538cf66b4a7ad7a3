import CZlib

/// Inflates stored blocks into one buffer, reused from block to block.
///
/// A block's `size` says how long it is inflated; the data holds a zlib stream, or the bytes
/// themselves when its length equals `size` (as in SQLite's `sqlar` tables). Anything else (a
/// stream that does not inflate to exactly `size` bytes, a size out of bounds) is damage, which
/// the row's checksum almost always names first.
struct BlockInflater {
    /// The last block inflated.
    private(set) var bytes: [UInt8] = []

    /// No block inflates past this: a recorder's largest is a few keyframes' worth, and a
    /// damaged `size` must not make a reader allocate without bound.
    static let maximumSize = 1 << 30

    /// A block that cannot be inflated as its row says.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Inflates `data` into ``bytes``, which then holds exactly `size` bytes.
    mutating func inflate(_ data: UnsafeRawBufferPointer, size: Int) throws(Failure) {
        guard (1...Self.maximumSize).contains(size) else {
            throw Failure(description: "its size, \(size), is not one a block can have")
        }
        bytes.removeAll(keepingCapacity: true)
        if data.count == size {
            bytes.append(contentsOf: data)
            return
        }
        bytes.append(contentsOf: repeatElement(0, count: size))
        var length = UInt(size)
        let status = bytes.withUnsafeMutableBytes { output in
            uncompress(
                output.baseAddress?.assumingMemoryBound(to: Bytef.self), &length,
                data.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt(data.count))
        }
        guard status == Z_OK, length == UInt(size) else {
            bytes.removeAll(keepingCapacity: true)
            let reason = status == Z_OK ? "it inflates to \(length) bytes, not \(size)" : "its data does not inflate (zlib error \(status))"
            throw Failure(description: reason)
        }
    }
}
