import Foundation

/// Remembers the arrays of the last value a `JSONValueEncoder` encoded with it, so that the
/// next, mostly equal value re-encodes only the elements that changed.
///
/// An element is unchanged when its bytes equal the previous one's: a copy that shares its
/// copy-on-write storage, which the memo keeps alive so that a mutation cannot reuse it. Its
/// tree and digest are then reused. Nothing else counts as unchanged, `==` least of all: a
/// type's own `==` may compare only an `id`, and `0.0 == -0.0`, so what is stored would
/// depend on it. So elements should be values: an element holding a class instance that was
/// mutated in place looks unchanged. One memo serves one sequence of values, such as the
/// states of one recorded session, on one thread.
public final class JSONEncodingMemo {
    struct Entry {
        let previous: Any
        let elements: [JSONValue]
        let digests: [StateDigest]
    }

    private var entries: [String: Entry] = [:]
    private var current: [String: Entry] = [:]

    public init() {}

    /// The digest of `value`, the tree last encoded with this memo, reusing the element digests
    /// of the arrays it remembers.
    public func digest(of value: JSONValue) -> StateDigest {
        let remembered = entries.values
        return StateDigest(rawValue: StructuralHasher.digest(of: value) { elements in
            let address = elements.withUnsafeBufferPointer { $0.baseAddress }
            // The same buffer, kept alive by both the tree and the memo, holds the same elements.
            return remembered.first { entry in
                entry.elements.withUnsafeBufferPointer { $0.baseAddress } == address && entry.elements.count == elements.count
            }?.digests
        })
    }

    func beginValue() {
        current = [:]
    }

    func endValue() {
        entries = current
        current = [:]
    }

    func entry(at path: String) -> Entry? {
        entries[path]
    }

    func remember(_ entry: Entry, at path: String) {
        current[path] = entry
    }
}

/// An array whose unchanged elements a memo can skip.
protocol MemoizableArray {
    func encodeMemoized(in encoder: TreeEncoder, at key: (any CodingKey)?, memo: JSONEncodingMemo) throws -> JSONValue
}

extension Array: MemoizableArray where Element: Encodable {
    func encodeMemoized(in encoder: TreeEncoder, at key: (any CodingKey)?, memo: JSONEncodingMemo) throws -> JSONValue {
        let path = encoder.codingPath(appending: key).map(\.stringValue).joined(separator: "\u{1F}")
        let entry = memo.entry(at: path)
        let previous = entry?.previous as? [Element]
        let node = key.map { CodingPathNode(parent: encoder.pathNode, key: $0) } ?? encoder.pathNode
        let child = TreeEncoder(parentNode: node, key: nil, userInfo: encoder.userInfo, memo: memo)
        // Hoisted out of the loop: this code runs unspecialized, so every access inside the
        // loop costs metadata lookups and copies.
        let previousElements = entry?.elements ?? []
        let previousDigests = entry?.digests ?? []
        let reusable = Swift.min(previous?.count ?? 0, previousElements.count)
        var elements: [JSONValue] = []
        var digests: [StateDigest] = []
        elements.reserveCapacity(count)
        digests.reserveCapacity(count)
        // Unchanged elements are found first. An element the reducer left alone is a bitwise
        // copy of the previous one (its strings and arrays shared, copy-on-write); one it
        // changed, even to an equal value, is encoded again.
        let stride = MemoryLayout<Element>.stride
        let size = MemoryLayout<Element>.size
        let unchanged: [Bool] = (previous ?? []).withUnsafeBytes { old in
            withUnsafeBytes { new in
                (0..<count).map { index in
                    guard index < reusable, let a = old.baseAddress, let b = new.baseAddress else { return false }
                    return memcmp(a + index * stride, b + index * stride, size) == 0
                }
            }
        }
        for index in 0..<count {
            if unchanged[index] {
                elements.append(previousElements[index])
                digests.append(previousDigests[index])
            } else {
                let tree = try child.box(self[index], at: JSONCodingKey.index(index))
                elements.append(tree)
                digests.append(tree.digest)
            }
        }
        memo.remember(JSONEncodingMemo.Entry(previous: self, elements: elements, digests: digests), at: path)
        return .array(elements)
    }
}
