import Foundation

/// An array whose unchanged elements a memo can skip.
protocol MemoizableArray {
    func encodeMemoized(in encoder: TreeEncoder, at key: (any CodingKey)?, memo: JSONEncodingMemo) throws -> JSONValue
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
        var entry = memo.takeEntry(at: path)
        var previous = entry?.previous as? [Element]
        let node = key.map { CodingPathNode(parent: encoder.pathNode, key: $0) } ?? encoder.pathNode
        let child = TreeEncoder(parentNode: node, key: nil, userInfo: encoder.userInfo, memo: memo, prefersTreeCoding: encoder.prefersTreeCoding)
        // Asked once an array: elements that build their own trees skip `Encodable`.
        let treeElement = encoder.prefersTreeCoding ? Element.self as? any JSONTreeEncodable.Type : nil
        // Hoisted out of the loop: this code runs unspecialized, so every access inside the
        // loop costs metadata lookups and copies.
        // The previous trees and digests, rewritten in place where elements changed: a replay
        // drops each tree once it has its digest, so these are the buffers' only holders.
        var elements = entry?.elements ?? []
        var digests = entry?.digests ?? []
        let reusable = Swift.min(previous?.count ?? 0, elements.count, digests.count)
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
        // Those are compared again on the bytes the previous element's copy wrote. A trivial
        // type is copied whole, padding too: its differing bytes are a change.
        let tracksPadding = !_isPOD(Element.self)
        var masks = entry?.writtenMasks ?? []
        entry = nil  // the masks' only holder now, so that they can be rewritten in place
        let masksArePrevious = previous.map { masks.count == $0.count * size } ?? false
        if let previous, tracksPadding, masksArePrevious {
            masks.withUnsafeBytes { mask in
                previous.withUnsafeBytes { old in
                    withUnsafeBytes { new in
                        guard let mask = mask.baseAddress, let old = old.baseAddress, let new = new.baseAddress else { return }
                        for index in 0..<Swift.min(reusable, count) where !unchanged[index] {
                            unchanged[index] = WrittenBytes.equal(old + index * stride, new + index * stride, mask: mask + index * size, size: size)
                        }
                    }
                }
            }
        }
        if tracksPadding && !(masksArePrevious && masks.count == count * size) {
            // A new length (or no masks yet): the reused elements keep theirs, the others get one.
            var resized = [UInt8](repeating: 0, count: count * size)
            resized.withUnsafeMutableBytes { target in
                masks.withUnsafeBytes { source in
                    guard let target = target.baseAddress else { return }
                    for index in 0..<count where unchanged[index] {
                        if masksArePrevious, let source = source.baseAddress {
                            target.advanced(by: index * size).copyMemory(from: source + index * size, byteCount: size)
                        } else {
                            WrittenBytes.mask(of: self[index], into: target + index * size)
                        }
                    }
                }
            }
            masks = resized
        } else if !tracksPadding {
            masks = []
        }
        for index in 0..<count where !unchanged[index] {
            let tree =
                try treeElement?.encodeTree(of: self[index], at: child.child(at: JSONCodingKey.index(index)))
                ?? child.box(self[index], at: JSONCodingKey.index(index))
            // In order, so an index past the previous trees is the next one to append.
            if index < elements.count {
                elements[index] = tree
                digests[index] = tree.digest
            } else {
                elements.append(tree)
                digests.append(tree.digest)
            }
            if tracksPadding {
                masks.withUnsafeMutableBytes { mask in
                    if let mask = mask.baseAddress { WrittenBytes.mask(of: self[index], into: mask + index * size) }
                }
            }
        }
        if elements.count > count {
            elements.removeLast(elements.count - count)
            digests.removeLast(digests.count - count)
        }
        memo.remember(
            JSONEncodingMemo.Entry(previous: updatedCopy(of: &previous, unchanged: unchanged), elements: elements, digests: digests, writtenMasks: masks),
            at: path)
        return .array(elements)
    }

    /// The memo's copy of this array: `previous`, the copy it kept of the last one, with the
    /// changed elements assigned, or a new copy the first time.
    ///
    /// Keeping this array itself made it shared, so its owner's next mutation (a reducer
    /// renaming one of 1,000 photos) copied all of it and then freed the old buffer: half of
    /// a replay of large states. The copy holds the same elements (their strings retained),
    /// which is what makes equal bytes mean an unchanged element.
    private func updatedCopy(of previous: inout [Element]?, unchanged: [Bool]) -> [Element] {
        guard var copy = previous else { return ownCopy() }
        previous = nil  // the copy's only holder now, so that it is written in place
        let kept = Swift.min(copy.count, count)
        for index in 0..<kept where !unchanged[index] {
            copy[index] = self[index]
        }
        if copy.count > count {
            copy.removeLast(copy.count - count)
        } else if copy.count < count {
            copy.append(contentsOf: self[copy.count...])
        }
        return copy
    }

    /// The same elements in a new buffer: a copy that shares nothing with this array's storage.
    private func ownCopy() -> [Element] {
        // `Array(self)` would share the buffer; appending into a new one copies each element.
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
