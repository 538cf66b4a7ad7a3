import Foundation

/// Remembers the arrays of the last value a `JSONValueEncoder` encoded with it, so that the
/// next, mostly equal value re-encodes only the elements that changed.
///
/// An element is unchanged when its bytes equal the previous one's, padding aside: a copy that
/// shares its copy-on-write storage, which the memo keeps alive so that a mutation cannot reuse
/// it. Its tree and digest are then reused. Nothing else counts as unchanged, `==` least of all: a
/// type's own `==` may compare only an `id`, and `0.0 == -0.0`, so what is stored would
/// depend on it. So elements should be values: an element holding a class instance that was
/// mutated in place looks unchanged. One memo serves one sequence of values, such as the
/// states of one recorded session, on one thread.
public final class JSONEncodingMemo {
    struct Entry {
        let previous: Any
        let elements: [JSONValue]
        let digests: [StateDigest]
        /// For each element of `previous` that is not of a trivial type, which of its bytes
        /// copying writes (see `WrittenBytes`): `size` bytes an element.
        var writtenMasks: [UInt8] = []
        /// The array's digest as hashed up to each element, so that the next one is hashed on
        /// from its first changed element.
        var digestPrefixes: [UInt64] = []
        /// The array's digest.
        var digest: UInt64 = 0
    }

    // Unchecked: their accesses were checked for exclusivity at run time, 2 % of replaying a
    // login recording, whose states have no arrays and leave both empty. One memo serves one
    // thread, and no method calls out while it accesses them, so no two accesses overlap.
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    @exclusivity(unchecked) private var current: [String: Entry] = [:]

    public init() {}

    /// The digest of `value`, the tree last encoded with this memo, reusing the element digests
    /// of the arrays it remembers.
    public func digest(of value: JSONValue) -> StateDigest {
        let remembered = entries.values
        return StateDigest(
            rawValue: StructuralHasher.digest(of: value) { elements in
                let address = elements.withUnsafeBufferPointer { $0.baseAddress }
                // The same buffer, kept alive by both the tree and the memo, holds the same elements.
                return remembered.first { entry in
                    entry.elements.withUnsafeBufferPointer { $0.baseAddress } == address && entry.elements.count == elements.count
                }?.digest
            })
    }

    /// Once let go of the arrays of the last value encoded, which the memo shared with it.
    ///
    /// The memo now keeps copies of its own after every encode, updated where elements changed,
    /// so there is nothing left to let go of.
    @available(*, deprecated, message: "the memo no longer shares the arrays of the value it encoded")
    public func detachFromLastValue() {}

    func beginValue() {
        current = [:]
    }

    func endValue() {
        entries = current
        current = [:]
    }

    /// The entry of the last value at `path`, taken out of the memo: the value being encoded
    /// replaces it, and its buffers, no longer shared, can be reused in place.
    func takeEntry(at path: String) -> Entry? {
        entries.removeValue(forKey: path)
    }

    func remember(_ entry: Entry, at path: String) {
        current[path] = entry
    }
}
