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
        /// The trees of the value before, whose buffer the next value's are written into.
        var spare: [JSONValue] = []
        /// The indices at which `elements` changed from the value before's (its new ones too).
        var changed: [Int] = []
        let digests: [StateDigest]
        /// For each element of `previous` that is not of a trivial type, which of its bytes
        /// copying writes (see `WrittenBytes`): `size` bytes an element.
        var writtenMasks: [UInt8] = []
        /// Under ``StateDigest/Rule/chained``, the array's digest as hashed up to each element,
        /// so that the next one is hashed on from its first changed element.
        var digestPrefixes: [UInt64] = []
        /// Under ``StateDigest/Rule/summed``, the sum of the elements' terms, which the next
        /// value's changed elements change.
        var digestSum: UInt64 = 0
        /// The array's digest.
        var digest: UInt64 = 0
    }

    // Unchecked: their accesses were checked for exclusivity at run time, 2 % of replaying a
    // login recording, whose states have no arrays and leave both empty. One memo serves one
    // thread, and no method calls out while it accesses them, so no two accesses overlap.
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    @exclusivity(unchecked) private var current: [String: Entry] = [:]
    /// For each array of the last value whose length is the one before's, the address of its
    /// buffer: the address of the one before's, and the indices at which they differ.
    @exclusivity(unchecked) private var changes: [UnsafeRawPointer: (from: UnsafeRawPointer, changed: [Int])] = [:]

    /// The rule by which arrays are hashed.
    public let rule: StateDigest.Rule

    public init(rule: StateDigest.Rule = .newest) {
        self.rule = rule
    }

    /// The digest of `value`, the tree last encoded with this memo, by its rule, reusing the
    /// element digests of the arrays it remembers.
    public func digest(of value: JSONValue) -> StateDigest {
        let remembered = entries.values
        return StateDigest(
            rawValue: StructuralHasher.digest(of: value, rule: rule) { elements in
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
        changes = [:]
    }

    /// Notes that the array with buffer `new` differs from the one with buffer `old`, of the
    /// same length, only at `changed`: `JSONPatch.between(_:_:changesFrom:)` diffs them there.
    func noteChange(from old: UnsafePointer<JSONValue>?, to new: UnsafePointer<JSONValue>?, changed: [Int]) {
        guard let old, let new else { return }
        changes[UnsafeRawPointer(new)] = (UnsafeRawPointer(old), changed)
    }

    /// The indices, in order, at which `new`, an array of the last value encoded, differs from
    /// `old`, when `old` is the same array of the value before: nil when unknown.
    ///
    /// Buffers are told apart by address. Both arrays are alive while this is asked, and
    /// neither buffer is written while a value holds it (copy-on-write), so an address matches
    /// only the buffer noted.
    func changedIndices(from old: UnsafeBufferPointer<JSONValue>, to new: UnsafeBufferPointer<JSONValue>) -> [Int]? {
        guard !changes.isEmpty, old.count == new.count, let oldAddress = old.baseAddress, let newAddress = new.baseAddress,
            let change = changes[UnsafeRawPointer(newAddress)], change.from == UnsafeRawPointer(oldAddress)
        else { return nil }
        return change.changed
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
