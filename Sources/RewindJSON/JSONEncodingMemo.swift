import Foundation

/// Remembers the arrays of the last value a `JSONValueEncoder` encoded with it, so that the
/// next, mostly equal value re-encodes only the elements that changed.
///
/// An element is unchanged when its bytes equal the previous one's (a copy that shares its
/// copy-on-write storage), or else when `==` says so; its tree and digest are then reused. So
/// elements should be values: an element holding a class instance that was mutated in place
/// looks unchanged. One memo serves one sequence of values, such as the states of one
/// recorded session, on one thread.
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

/// An array whose elements can be compared, so a memo can skip the unchanged ones.
protocol MemoizableArray {
    func encodeMemoized(in encoder: TreeEncoder, at key: (any CodingKey)?, memo: JSONEncodingMemo) throws -> JSONValue
}

extension Array: MemoizableArray where Element: Encodable & Equatable {
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
        // Equal elements are found first. An element the reducer left alone is a bitwise copy
        // of the previous one (its strings and arrays shared, copy-on-write), so comparing its
        // bytes settles most elements; `==`, which this unspecialized code can only call on
        // copies of the elements, is left for those whose bytes differ.
        let size = MemoryLayout<Element>.size
        let unchanged: [Bool] = (previous ?? []).withUnsafeBufferPointer { old in
            withUnsafeBufferPointer { new in
                (0..<new.count).map { index in
                    guard index < reusable else { return false }
                    if let a = old.baseAddress, let b = new.baseAddress, memcmp(a + index, b + index, size) == 0 { return true }
                    return old[index] == new[index]
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
