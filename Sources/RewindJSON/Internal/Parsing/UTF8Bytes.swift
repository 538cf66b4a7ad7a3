import Foundation

/// Byte-wise comparison and hashing of strings' UTF-8, the order canonical JSON sorts keys in.
///
/// Swift's own `String` comparison follows Unicode canonical equivalence: two keys with
/// different bytes could compare equal, and non-NFC keys would sort apart from their
/// canonical text. Canonical JSON is about bytes, so everything here is about bytes.
enum UTF8Bytes {
    /// Runs `body` on the UTF-8 of `string`: in place for native Swift strings, which store
    /// contiguous UTF-8, through a copy for the rare bridged ones.
    @inline(__always)
    static func withBytes<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(string.utf8).withUnsafeBufferPointer(body)
    }

    /// A negative number, zero or a positive number as `a` sorts before, with or after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        withBytes(of: a) { bytesA in withBytes(of: b) { bytesB in compare(bytesA, bytesB) } }
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shared = min(a.count, b.count)
        if shared > 0, let baseA = a.baseAddress, let baseB = b.baseAddress {
            let result = memcmp(baseA, baseB, shared)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }

    /// Whether both strings have the same UTF-8 bytes; at once when they are the same string
    /// (the same storage, or the same inline small string), as keys from one type's coding
    /// keys and short values most often are.
    static func equal(_ a: String, _ b: String) -> Bool {
        identical(a, b) || (a.utf8.count == b.utf8.count && compare(a, b) == 0)
    }

    /// Whether `a` and `b` are bit for bit the same `String` value.
    @inline(__always)
    static func identical(_ a: String, _ b: String) -> Bool {
        withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    static func hash(_ string: String, into hasher: inout Hasher) {
        withBytes(of: string) { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

extension UTF8Bytes {
    /// The length of the well-formed UTF-8 sequence starting at `index`, or `nil` if it is not one.
    ///
    /// Rejects overlong forms, surrogates and scalars above U+10FFFF (Unicode table 3-7).
    static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard bytes.count - index >= length, secondRange.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}
