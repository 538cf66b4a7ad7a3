import RewindLog

/// Reads an upload's numbers and byte runs, refusing a body that ends too soon.
struct ByteReader {
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

/// Appends an upload's numbers, little-endian.
extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
