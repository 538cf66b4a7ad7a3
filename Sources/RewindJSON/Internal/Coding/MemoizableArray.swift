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
        // The previous digests, masks and prefixes, rewritten in place where elements changed:
        // the memo is their only holder.
        let last = entry?.elements ?? []
        // This value's trees are written into the buffer of the value before the last one (the
        // spare), brought up to the last: the last value's tree may still be held (a recorder
        // diffs the next state against it), and writing into its buffer would copy all of it,
        // each element retained, each step (1.6M of the 2.7M instructions of recording a step of
        // 10,000 photos, callgrind). The spare's trees are brought up to the last value's where
        // those changed, or where its length did.
        var elements = entry?.spare ?? []
        let lastChanged = entry?.changed ?? []
        let lastAddress = last.withUnsafeBufferPointer { $0.baseAddress }
        var digests = entry?.digests ?? []
        var masks = entry?.writtenMasks ?? []
        var prefixes = entry?.digestPrefixes ?? []
        var sum = entry?.digestSum ?? 0
        let rule = memo.rule
        // Let go of the entry before any of its buffers is changed: while it holds them too,
        // the first change copies a thousand trees (a third of a large-state replay, once).
        entry = nil
        Self.bringUp(&elements, to: last, changed: lastChanged)
        let reusable = Swift.min(previous?.count ?? 0, elements.count, digests.count)
        elements.reserveCapacity(count)
        digests.reserveCapacity(count)
        // Unchanged elements are found first. An element the reducer left alone is a bitwise
        // copy of the previous one (its strings and arrays shared, copy-on-write); one it
        // changed, even to an equal value, is encoded again.
        let stride = MemoryLayout<Element>.stride
        let size = MemoryLayout<Element>.size
        // The elements whose bytes differ from the copy's, found by comparing runs of them at
        // once (below), so that an unchanged run of a thousand costs a few calls to memcmp.
        let compared = Swift.min(reusable, count)
        let differing = (previous ?? []).withUnsafeBytes { old in
            withUnsafeBytes { new in Self.differingElements(old, new, count: compared, stride: stride, size: size) }
        }
        // Bytes that differ may be padding only: an array copied on write copies its elements
        // field by field, leaving the padding between fields as the new buffer's memory had it.
        // Those are compared again on the bytes the previous element's copy wrote. A trivial
        // type is copied whole, padding too: its differing bytes are a change.
        let tracksPadding = !_isPOD(Element.self)
        let masksArePrevious = previous.map { masks.count == $0.count * size } ?? false
        var changed = differing
        if let previous, tracksPadding, masksArePrevious {
            changed = masks.withUnsafeBytes { mask in
                previous.withUnsafeBytes { old in
                    withUnsafeBytes { new in
                        guard let mask = mask.baseAddress, let old = old.baseAddress, let new = new.baseAddress else { return differing }
                        return differing.filter { index in
                            !WrittenBytes.equal(old + index * stride, new + index * stride, mask: mask + index * size, size: size)
                        }
                    }
                }
            }
        }
        // The elements past the previous ones are new. Every walk below goes over `changed`,
        // in order, not over the whole array: a step that changed one element of a thousand
        // walked a thousand flags five times, a fifth of replaying it (callgrind).
        if compared < count { changed.append(contentsOf: compared..<count) }
        if tracksPadding && !(masksArePrevious && masks.count == count * size) {
            // A new length (or no masks yet): the reused elements keep theirs, the others get one.
            var isChanged = [Bool](repeating: false, count: count)
            for index in changed { isChanged[index] = true }
            var resized = [UInt8](repeating: 0, count: count * size)
            resized.withUnsafeMutableBytes { target in
                masks.withUnsafeBytes { source in
                    guard let target = target.baseAddress else { return }
                    for index in 0..<count where !isChanged[index] {
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
        for index in changed {
            let tree =
                try treeElement?.encodeTree(of: self[index], at: child.child(at: JSONCodingKey.index(index)))
                ?? child.box(self[index], at: JSONCodingKey.index(index))
            let digest = tree.digest(by: rule)
            // In order, so an index past the previous trees is the next one to append.
            if index < elements.count {
                elements[index] = tree
                if rule == .summed {
                    sum &-= StateDigest.Rule.term(of: digests[index].rawValue, at: index)
                    sum &+= StateDigest.Rule.term(of: digest.rawValue, at: index)
                }
                digests[index] = digest
            } else {
                elements.append(tree)
                if rule == .summed { sum &+= StateDigest.Rule.term(of: digest.rawValue, at: index) }
                digests.append(digest)
            }
            if tracksPadding {
                masks.withUnsafeMutableBytes { mask in
                    if let mask = mask.baseAddress { WrittenBytes.mask(of: self[index], into: mask + index * size) }
                }
            }
        }
        if elements.count > count {
            if rule == .summed {
                for index in count..<digests.count { sum &-= StateDigest.Rule.term(of: digests[index].rawValue, at: index) }
            }
            elements.removeLast(elements.count - count)
            digests.removeLast(digests.count - count)
        }
        // The array's digest: chained on from the first element that changed, or from the sum
        // its changed elements changed (see `Entry`).
        let arrayDigest: UInt64
        switch rule {
        case .chained:
            let firstChanged = changed.first ?? count
            arrayDigest = Self.digest(of: digests, count: count, prefixes: &prefixes, from: prefixes.count == count ? firstChanged : 0)
        case .summed:
            var hasher = StructuralHasher.FNV()
            hasher.byte(5)
            hasher.word(UInt64(count))
            hasher.word(sum)
            arrayDigest = hasher.hash
        }
        let hadPrevious = previous != nil
        if hadPrevious && last.count == count && count > 0 {
            memo.noteChange(from: lastAddress, to: elements.withUnsafeBufferPointer { $0.baseAddress }, changed: changed)
        }
        var copy = updatedCopy(of: &previous, changed: changed)
        // The copy takes this array's bytes where they differed, padding and all, so that the
        // next step finds them equal without their masks.
        let synced: [Int] = hadPrevious ? differing + [Int](compared..<count) : [Int](0..<count)
        copy.withUnsafeMutableBytes { target in
            withUnsafeBytes { source in
                guard let target = target.baseAddress, let source = source.baseAddress else { return }
                // With the padding after each element but the last, which runs are compared on too.
                for index in synced where index < count {
                    (target + index * stride).copyMemory(from: source + index * stride, byteCount: index < count - 1 ? stride : size)
                }
            }
        }
        memo.remember(
            JSONEncodingMemo.Entry(
                previous: copy, elements: elements, spare: last, changed: changed, digests: digests, writtenMasks: masks,
                digestPrefixes: prefixes, digestSum: sum, digest: arrayDigest),
            at: path)
        return .array(elements)
    }

    /// Makes `spare`, the trees of the value before the last, equal to `last`'s, given
    /// `changed`, the indices at which `last` changed from it (those past its end included).
    static func bringUp(_ spare: inout [JSONValue], to last: [JSONValue], changed: [Int]) {
        let kept = Swift.min(spare.count, last.count)
        if spare.count > last.count {
            spare.removeLast(spare.count - last.count)
        } else if spare.count < last.count {
            spare.append(contentsOf: last[spare.count...])
        }
        for index in changed where index < kept {
            spare[index] = last[index]
        }
    }

    /// The digest of an array of `count` elements whose digests are `digests`, as
    /// `StructuralHasher` takes it, given `prefixes`, the hash after each element of the last
    /// array of this length, and `first`, the first element that changed since: the hash is
    /// taken on from the one before it, and `prefixes` rewritten from there.
    ///
    /// A hash of an element's digest is eight steps of FNV-1a, each waiting for the one before:
    /// for a thousand photos, over half of replaying a step that changed one of them.
    static func digest(of digests: [StateDigest], count: Int, prefixes: inout [UInt64], from first: Int) -> UInt64 {
        var hasher = StructuralHasher.FNV()
        if first > 0 {
            hasher.hash = prefixes[first - 1]
        } else {
            hasher.byte(5)
            hasher.word(UInt64(count))
        }
        if prefixes.count != count { prefixes = [UInt64](repeating: 0, count: count) }
        for index in first..<count {
            hasher.word(digests[index].rawValue)
            prefixes[index] = hasher.hash
        }
        return count == 0 ? hasher.hash : prefixes[count - 1]
    }

    /// The indices below `count` at which the elements of `old` and `new` differ in any byte,
    /// in order.
    ///
    /// Runs of 64 elements are compared whole first, and only a run that differs element by
    /// element: the memo's copy holds the same bytes as the array it was taken from, padding
    /// included, so a step that changed one element of a thousand compares 16 runs and 64
    /// elements, where one memcmp an element cost several times more.
    static func differingElements(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer, count: Int, stride: Int, size: Int) -> [Int] {
        guard count > 0, let a = old.baseAddress, let b = new.baseAddress else { return [] }
        var found: [Int] = []
        let run = 64
        var start = 0
        while start < count {
            let end = Swift.min(start + run, count)
            // The last element of a run is compared to its size, not past the buffer's end.
            if memcmp(a + start * stride, b + start * stride, (end - start - 1) * stride + size) != 0 {
                for index in start..<end where memcmp(a + index * stride, b + index * stride, size) != 0 {
                    found.append(index)
                }
            }
            start = end
        }
        return found
    }

    /// The memo's copy of this array: `previous`, the copy it kept of the last one, with the
    /// changed elements assigned, or a new copy the first time.
    ///
    /// Keeping this array itself made it shared, so its owner's next mutation (a reducer
    /// renaming one of 1,000 photos) copied all of it and then freed the old buffer: half of
    /// a replay of large states. The copy holds the same elements (their strings retained),
    /// which is what makes equal bytes mean an unchanged element.
    private func updatedCopy(of previous: inout [Element]?, changed: [Int]) -> [Element] {
        guard var copy = previous else { return ownCopy() }
        previous = nil  // the copy's only holder now, so that it is written in place
        let kept = Swift.min(copy.count, count)
        for index in changed where index < kept {
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
    ///
    /// Its bytes are then made this array's own, padding included (see
    /// ``encodeMemoized(in:at:memo:)``): copying a value writes every byte but padding as the
    /// original has it, the references it retained included, so only padding changes.
    private func ownCopy() -> [Element] {
        // `Array(self)` would share the buffer; appending into a new one copies each element.
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
