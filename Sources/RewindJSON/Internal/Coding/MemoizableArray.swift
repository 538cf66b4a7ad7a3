import Foundation

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
