import Foundation

/// An array whose unchanged elements a memo can skip.
protocol MemoizableArray {
    func encodeMemoized(in encoder: TreeEncoder, at key: (any CodingKey)?, memo: JSONEncodingMemo) throws -> JSONValue

    /// The same elements in a new buffer: a copy that shares nothing with this array's storage.
    func copiedToOwnBuffer() -> Any
}

enum MemoizableArrays {
    /// Whether `type` may be an array: one reference wide. Asked before the cast, a lookup of
    /// the conformance that cost more than encoding a small value (a tenth of replaying a
    /// login step, whose secret and status would each be cast).
    @inline(__always)
    static func mayBe<T>(_ type: T.Type) -> Bool {
        MemoryLayout<T>.size == MemoryLayout<[Int]>.size
    }
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
        var unchanged: [Bool] = (previous ?? []).withUnsafeBytes { old in
            withUnsafeBytes { new in
                (0..<count).map { index in
                    guard index < reusable, let a = old.baseAddress, let b = new.baseAddress else { return false }
                    return memcmp(a + index * stride, b + index * stride, size) == 0
                }
            }
        }
        // Bytes that differ may be padding only: an array copied on write copies its elements
        // field by field, leaving the padding between fields as the new buffer's memory had it.
        // A trivial type is copied whole, padding too: its differing bytes are a change.
        if let previous, !_isPOD(Element.self) {
            for index in 0..<Swift.min(reusable, count) where !unchanged[index] {
                unchanged[index] = Self.sameBitsIgnoringPadding(previous[index], self[index])
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

    /// Whether `a` and `b` have the same bits in every byte that copying writes: each is copied
    /// into zeroed memory, so padding, which a copy does not write, is zero in both. A value the
    /// copy writes whole (a trivial type) keeps its padding, so it may only be thought changed.
    static func sameBitsIgnoringPadding(_ a: Element, _ b: Element) -> Bool {
        let size = MemoryLayout<Element>.size
        return withUnsafeTemporaryAllocation(byteCount: 2 * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment) { raw in
            guard let base = raw.baseAddress else { return false }
            base.initializeMemory(as: UInt8.self, repeating: 0, count: raw.count)
            let second = base + MemoryLayout<Element>.stride
            let copyOfA = base.initializeMemory(as: Element.self, repeating: a, count: 1)
            let copyOfB = second.initializeMemory(as: Element.self, repeating: b, count: 1)
            defer {
                copyOfA.deinitialize(count: 1)
                copyOfB.deinitialize(count: 1)
            }
            return memcmp(base, second, size) == 0
        }
    }

    func copiedToOwnBuffer() -> Any {
        // `Array(self)` would share the buffer; appending into a new one copies each element.
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
