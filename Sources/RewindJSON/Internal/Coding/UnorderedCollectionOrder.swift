/// Finds sets and dictionaries cheaply, and orders their elements by canonical bytes.
enum UnorderedCollectionOrder {
    /// Whether `type` may be a set or a dictionary: both are one reference wide. Asked before
    /// the cast, which costs more than encoding most values (replay encodes a state a step).
    @inline(__always)
    static func mayBe<T>(_ type: T.Type) -> Bool {
        MemoryLayout<T>.size == MemoryLayout<Set<Int>>.size
    }

    static func bytes(of value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        value.canonicalBytes(into: &bytes)
        return bytes
    }
}
