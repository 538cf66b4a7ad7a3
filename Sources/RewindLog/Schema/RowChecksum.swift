import GRDB

/// The checksum written with every row of a log (event, session, gap): 64-bit FNV-1a over the
/// row's values, each framed by its type and length.
///
/// FNV-1a maps each byte through a bijection of the running hash (an XOR, then a
/// multiplication by an odd prime), so two rows whose bytes differ in exactly one place always
/// get different checksums: every single-byte change to a stored value is found. The framing
/// keeps `"ab", "c"` apart from `"a", "bc"` and NULL apart from an empty text.
struct RowChecksum {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A checksum of a row of `table`, whose name starts the hash so that the same values in
    /// two tables differ.
    init(table: String) {
        add(text: table)
    }

    /// The checksum as SQLite stores it.
    var value: Int64 { Int64(bitPattern: hash) }

    mutating func add(_ value: Int64?) {
        guard let value else { return addNull() }
        addByte(1)
        addWord(UInt64(bitPattern: value))
    }

    mutating func add(_ value: Int?) {
        add(value.map(Int64.init))
    }

    mutating func add(_ value: Double?) {
        guard let value else { return addNull() }
        addByte(2)
        addWord(value.bitPattern)
    }

    mutating func add(text: String?) {
        guard var copy = text else { return addNull() }
        copy.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a text by its UTF-8 bytes, as SQLite stores it.
    mutating func add(bytes: UnsafeRawBufferPointer?) {
        guard let bytes else { return addNull() }
        addByte(3)
        addWord(UInt64(bytes.count))
        for byte in bytes { addByte(byte) }
    }

    fileprivate mutating func addNull() {
        addByte(0)
    }

    fileprivate mutating func addWord(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            addByte(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }

    @inline(__always)
    fileprivate mutating func addByte(_ byte: UInt8) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
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
        addByte(4)
        addWord(UInt64(blob.count))
        for byte in blob { addByte(byte) }
    }
}
