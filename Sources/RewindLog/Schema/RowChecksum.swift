import GRDB
import RewindJSON

/// The checksum written with every row of a log (event, session, gap): a 64-bit hash over the
/// row's values taken as 64-bit words, each value framed by its type and length.
///
/// Each word goes through a bijection of the running hash (an XOR with the word, a
/// multiplication by an odd constant, an XOR with the hash shifted right by 32), so two rows
/// of the same length whose bytes differ in one word always get different checksums: every
/// single-byte change to a stored value is found. Word by word, it takes an eighth of the
/// multiplications of a byte-wise FNV-1a (measured, that was within the noise of a whole
/// `check` or replay: reading every column is what verifying costs); the shift carries a change
/// in a word's high bytes down, which a multiplication alone never does. The framing keeps
/// `"ab", "c"` apart from `"a", "bc"` and NULL apart from an empty text.
struct RowChecksum {
    private var hash = FNV1a.offsetBasis

    /// A checksum of a row of `table`, whose name starts the hash so that the same values in
    /// two tables differ.
    init(table: String) {
        add(text: table)
    }

    /// The checksum as SQLite stores it.
    var value: Int64 { Int64(bitPattern: hash) }

    mutating func add(_ value: Int64?) {
        guard let value else { return addNull() }
        mix(1)
        mix(UInt64(bitPattern: value))
    }

    mutating func add(_ value: Int?) {
        add(value.map(Int64.init))
    }

    mutating func add(_ value: Double?) {
        guard let value else { return addNull() }
        mix(2)
        mix(value.bitPattern)
    }

    mutating func add(text: String?) {
        guard var copy = text else { return addNull() }
        copy.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a text by its UTF-8 bytes, as SQLite stores it.
    mutating func add(bytes: UnsafeRawBufferPointer?) {
        guard let bytes else { return addNull() }
        mix(3)
        add(framed: bytes)
    }

    fileprivate mutating func addNull() {
        mix(0)
    }

    /// Adds the length of `bytes`, then their little-endian 64-bit words, the last one padded
    /// with zero bytes (the length tells the padding apart).
    fileprivate mutating func add(framed bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        mix(UInt64(count))
        var offset = 0
        while offset + 8 <= count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        guard offset < count else { return }
        var last: UInt64 = 0
        for index in offset..<count {
            last |= UInt64(bytes[index]) << UInt64(8 * (index - offset))
        }
        mix(last)
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
        hash ^= hash >> 32
    }
}

extension RowChecksum {
    /// Adds a value as SQLite gave it back, framed as the writer framed it.
    mutating func add(_ value: DatabaseValue) {
        switch value.storage {
        case .null: addNull()
        case let .int64(number): add(number)
        case let .double(number): add(number)
        case let .string(text): add(text: text)
        case let .blob(data): data.withUnsafeBytes { add(blob: $0) }
        }
    }

    /// A blob where a text belongs: framed apart from a text of the same bytes.
    mutating func add(blob: UnsafeRawBufferPointer) {
        mix(4)
        add(framed: blob)
    }
}
