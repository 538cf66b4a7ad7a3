/// FNV-1a's 64-bit constants: the hash under ``StateDigest`` and the structural digests, whose
/// offset basis also seeds the log's row checksums (docs/log-format.md), so that all three
/// start from one place.
package enum FNV1a {
    /// The hash of no bytes.
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// What each step multiplies by, after the XOR with the byte.
    package static let prime: UInt64 = 0x0000_0100_0000_01b3
}
