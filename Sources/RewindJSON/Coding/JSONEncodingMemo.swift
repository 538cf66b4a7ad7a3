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
                }?.digests
            })
    }

    /// Keeps the remembered arrays in buffers of the memo's own, so that the value it last
    /// encoded is no longer shared: its owner's next mutation then happens in place instead
    /// of copying the whole array.
    ///
    /// The copies hold the same elements (their strings and arrays retained), so what the
    /// next encode finds unchanged stays sound. It costs a copy of each array, so it is for
    /// when there is time to spare: a recorder calls it when nothing waits to be encoded.
    public func detachFromLastValue() {
        for (path, entry) in entries {
            guard let array = entry.previous as? any MemoizableArray else { continue }
            entries[path] = Entry(
                previous: array.copiedToOwnBuffer(), elements: entry.elements, digests: entry.digests, writtenMasks: entry.writtenMasks)
        }
    }

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
