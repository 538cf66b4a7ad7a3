/// A 64-bit fingerprint of a state, for telling states apart at a glance.
///
/// A value's digest is FNV-1a over a description of its structure in which every array
/// element and object member stands as its own digest (a Merkle hash), so an encoder that
/// remembers unchanged subtrees can reuse their digests; an array's elements are taken by a
/// ``Rule``, which a log's sessions record by their format. It depends on nothing but the value:
/// equal `JSONValue`s give equal digests on every run, process and machine, unlike `Hasher`,
/// which is seeded per process. It is not cryptographic, and distinct values may collide.
public struct StateDigest: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit hash.
    public let rawValue: UInt64

    /// A digest with the given hash, for example one read back from storage.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The FNV-1a hash of `canonicalBytes`.
    public init(canonicalBytes: some Sequence<UInt8>) {
        rawValue =
            canonicalBytes.withContiguousStorageIfAvailable(Self.hash)
            ?? canonicalBytes.reduce(FNV1a.offsetBasis, Self.step)
    }

    /// The loop over raw memory, which is what makes hashing a large state cheap.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = FNV1a.offsetBasis
        for byte in bytes {
            hash = step(hash, byte)
        }
        return hash
    }

    private static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* FNV1a.prime
    }

    /// The hash as 16 lowercase hexadecimal digits, such as `af63bd4c8601b7df`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
