/// A 64-bit fingerprint of a state, for telling states apart at a glance.
///
/// A value's digest is FNV-1a over a description of its structure in which every array
/// element and object member stands as its own digest (a Merkle hash), so an encoder that
/// remembers unchanged subtrees can reuse their digests. It depends on nothing but the value:
/// equal `JSONValue`s give equal digests on every run, process and machine, unlike `Hasher`,
/// which is seeded per process. It is not cryptographic, and distinct values may collide.
public struct StateDigest: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit hash.
    public let rawValue: UInt64

    /// A digest with the given hash, for example one read back from storage.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The FNV-1a hash of `canonicalBytes`.
    public init(canonicalBytes: some Sequence<UInt8>) {
        rawValue = canonicalBytes.withContiguousStorageIfAvailable(Self.hash)
            ?? canonicalBytes.reduce(Self.offsetBasis, Self.step)
    }

    /// The loop over raw memory, which is what makes hashing a large state cheap.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash = step(hash, byte)
        }
        return hash
    }

    private static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* prime
    }

    /// The hash as 16 lowercase hexadecimal digits, such as `af63bd4c8601b7df`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension JSONValue {
    /// The structural digest: equal values have equal digests everywhere, always.
    public var digest: StateDigest {
        StateDigest(rawValue: StructuralHasher.digest(of: self, arrays: nil))
    }
}

/// Computes structural digests: scalars hash their kind and bytes; arrays and objects hash
/// their kind, their size, and each member's own digest (and key).
enum StructuralHasher {
    /// The digest of `value`; `arrays` may supply the element digests of arrays it remembers.
    static func digest(of value: JSONValue, arrays: ((borrowing [JSONValue]) -> [StateDigest]?)?) -> UInt64 {
        var hasher = FNV()
        switch value {
        case .null:
            hasher.byte(0)
        case let .bool(flag):
            hasher.byte(1)
            hasher.byte(flag ? 1 : 0)
        case let .int(number):
            hasher.byte(2)
            hasher.word(UInt64(bitPattern: Int64(number)))
        case let .double(number):
            hasher.byte(3)
            hasher.word(number.bitPattern)
        case let .string(text):
            hasher.byte(4)
            hasher.string(text)
        case let .array(elements):
            hasher.byte(5)
            hasher.word(UInt64(elements.count))
            if let known = arrays?(elements) {
                for element in known { hasher.word(element.rawValue) }
            } else {
                for element in elements { hasher.word(digest(of: element, arrays: arrays)) }
            }
        case let .object(object):
            hasher.byte(6)
            hasher.word(UInt64(object.count))
            for (key, member) in object {
                hasher.string(key)
                hasher.word(digest(of: member, arrays: arrays))
            }
        }
        return hasher.hash
    }

    struct FNV {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func byte(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        mutating func word(_ word: UInt64) {
            var rest = word
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: rest))
                rest >>= 8
            }
        }

        mutating func string(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                word(UInt64(bytes.count))
                for byte in bytes { self.byte(byte) }
            }
        }
    }
}
