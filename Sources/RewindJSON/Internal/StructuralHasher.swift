/// Computes structural digests: scalars hash their kind and bytes; arrays and objects hash
/// their kind, their size, and each member's own digest (and key), arrays by `rule`.
enum StructuralHasher {
    /// The digest of `value` by `rule`; `arrays` may supply the digests of arrays it remembers.
    static func digest(of value: JSONValue, rule: StateDigest.Rule, arrays: ((borrowing [JSONValue]) -> UInt64?)?) -> UInt64 {
        digest(of: value, rule: rule, arrays: arrays) { digest(of: $0, rule: rule, arrays: arrays) }
    }

    /// The digest of `value` by `rule`, given the digest of each of its members by `member`:
    /// for a memo that knows some of them.
    static func digest(
        of value: JSONValue, rule: StateDigest.Rule, arrays: ((borrowing [JSONValue]) -> UInt64?)? = nil,
        member: (JSONValue) -> UInt64
    ) -> UInt64 {
        if case let .array(elements) = value, let known = arrays?(elements) { return known }
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
            switch rule {
            case .chained:
                for element in elements { hasher.word(member(element)) }
            case .summed:
                var sum: UInt64 = 0
                for (index, element) in elements.enumerated() { sum &+= StateDigest.Rule.term(of: member(element), at: index) }
                hasher.word(sum)
            }
        case let .object(object):
            hasher.byte(6)
            hasher.word(UInt64(object.count))
            for (key, value) in object {
                hasher.string(key)
                hasher.word(member(value))
            }
        }
        return hasher.hash
    }

    struct FNV {
        var hash = FNV1a.offsetBasis

        mutating func byte(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* FNV1a.prime
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
            text.withUTF8 { bytes($0) }
        }

        /// A string's UTF-8, as ``string(_:)`` hashes it: its length, then its bytes.
        mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
            word(UInt64(bytes.count))
            for byte in bytes { self.byte(byte) }
        }
    }
}
