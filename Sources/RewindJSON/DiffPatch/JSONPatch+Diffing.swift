extension JSONPatch {
    /// A small patch turning `old` into `new`.
    ///
    /// Equal subtrees produce no operations. Objects are compared key by key (removed keys become
    /// `remove`, added and changed ones recurse or `set`). Arrays lose their common prefix and
    /// suffix first, so inserting or removing one element anywhere is a single `splice`; what
    /// is left in the middle is edited element by element (aligned on the left or on the
    /// right, with one `splice` for the surplus), replaced by one `splice`, or, when its
    /// elements are identified (see ``JSONIdentity``), edited by id: elements gone or moved
    /// spliced out, the rest edited in place, elements new or moved spliced in. Whichever
    /// patch is smallest wins. Values of different types are replaced by one `set`.
    ///
    /// The cost is one walk over both values, each leaf compared once, except that subtrees
    /// sharing storage (as an unchanged part of a state copied from its predecessor does) are
    /// skipped at once. The middle of an array whose length changed is walked at most once
    /// per alignment, a trial stopping as soon as it costs more than the best patch so far.
    public static func between(_ old: JSONValue, _ new: JSONValue) -> JSONPatch {
        var operations: [Operation] = []
        var path: [JSONPath.Component] = []
        diff(old, new, path: &path, into: &operations)
        return JSONPatch(operations)
    }

    /// The patch ``between(_:_:)`` makes, when `new` is the value last encoded with `memo`
    /// and `old` the one encoded before it: the arrays the memo kept are compared only at the
    /// elements it re-encoded, not walked whole (a fifth of the cost of recording a step that
    /// changed one of 10,000 photos, callgrind).
    public static func between(_ old: JSONValue, _ new: JSONValue, changesFrom memo: JSONEncodingMemo) -> JSONPatch {
        var operations: [Operation] = []
        var path: [JSONPath.Component] = []
        diff(old, new, path: &path, into: &operations, changes: memo)
        return JSONPatch(operations)
    }

    // Containers are walked rather than first compared with `==`, which would compare every
    // subtree once per level above it.
    static func diff(
        _ old: JSONValue, _ new: JSONValue, path: inout [JSONPath.Component], into operations: inout [Operation], changes: JSONEncodingMemo? = nil
    ) {
        if old.sharesStorage(with: new) { return }
        // Nested switches rather than one over a tuple, which would copy both values.
        switch old {
        case .object(let oldObject):
            if case .object(let newObject) = new {
                return diffObjects(oldObject, newObject, path: &path, into: &operations, changes: changes)
            }
        case .array(let oldElements):
            if case .array(let newElements) = new {
                return diffArrays(oldElements, newElements, path: &path, into: &operations, changes: changes)
            }
        case .null, .bool, .int, .double, .string:
            if old == new { return }
        }
        operations.append(.set(JSONPath(path), new))
    }

    private static func diffObjects(
        _ old: JSONObject, _ new: JSONObject, path: inout [JSONPath.Component], into operations: inout [Operation], changes: JSONEncodingMemo?
    ) {
        var i = 0
        var j = 0
        // Both key lists are sorted, so one merge pass pairs them up.
        while i < old.count || j < new.count {
            let order = i == old.count ? 1 : j == new.count ? -1 : UTF8Bytes.compare(old.keys[i], new.keys[j])
            if order < 0 {
                operations.append(.remove(JSONPath(path + [.key(old.keys[i])])))
                i += 1
            } else if order > 0 {
                operations.append(.set(JSONPath(path + [.key(new.keys[j])]), new.values[j]))
                j += 1
            } else {
                path.append(.key(new.keys[j]))
                diff(old.values[i], new.values[j], path: &path, into: &operations, changes: changes)
                path.removeLast()
                i += 1
                j += 1
            }
        }
    }

    private static func diffArrays(
        _ old: [JSONValue], _ new: [JSONValue], path: inout [JSONPath.Component], into operations: inout [Operation], changes: JSONEncodingMemo?
    ) {
        let shorter = min(old.count, new.count)
        let (prefix, suffix) = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                // Where the memo says which elements it re-encoded, the others are the same trees:
                // the prefix ends, and the suffix starts, at a re-encoded one that differs.
                if let changed = changes?.changedIndices(from: old, to: new) {
                    let first = changed.first { !JSONValue.equal(old, $0, new, $0) }
                    guard let first else { return (shorter, 0) }
                    let last = changed.last { !JSONValue.equal(old, $0, new, $0) } ?? first
                    return (first, shorter - 1 - last)
                }
                var prefix = 0
                while prefix < shorter, JSONValue.equal(old, prefix, new, prefix) { prefix += 1 }
                var suffix = 0
                while suffix < shorter - prefix, JSONValue.equal(old, old.count - 1 - suffix, new, new.count - 1 - suffix) { suffix += 1 }
                return (prefix, suffix)
            }
        }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        if oldMiddle.isEmpty && newMiddle.isEmpty { return }
        let overlap = min(oldMiddle.count, newMiddle.count)

        let replacement = Operation.splice(JSONPath(path), range: oldMiddle, with: Array(new[newMiddle]))
        var best = [replacement]
        var bestCost = replacement.cost
        guard overlap > 0 else {
            operations.append(replacement)
            return
        }
        // Aligning the overlap on the left suits edits followed by an insertion or removal,
        // aligning it on the right suits the reverse; equal lengths make them the same. The
        // right is tried first when its first pair is equal (the left's first pair never is,
        // or it would be in the prefix), so that the other can stop as soon as it is worse.
        let surplus = oldMiddle.count - overlap + newMiddle.count - overlap
        let rightFirst = surplus > 0 && old[oldMiddle.upperBound - overlap] == new[newMiddle.upperBound - overlap]
        let alignments = surplus == 0 ? [true] : rightFirst ? [false, true] : [true, false]
        for alignLeft in alignments {
            let oldStart = alignLeft ? oldMiddle.lowerBound : oldMiddle.upperBound - overlap
            let newStart = alignLeft ? newMiddle.lowerBound : newMiddle.upperBound - overlap
            var candidate: [Operation] = []
            var cost = 0
            for offset in 0..<overlap {
                if cost >= bestCost { break }
                let start = candidate.count
                // Elements are edited before the splice, so they still sit at their old index.
                path.append(.index(oldStart + offset))
                diff(old[oldStart + offset], new[newStart + offset], path: &path, into: &candidate)
                path.removeLast()
                cost += candidate[start...].reduce(0) { $0 + $1.cost }
            }
            if surplus > 0 {
                let oldRest = alignLeft ? (oldStart + overlap)..<oldMiddle.upperBound : oldMiddle.lowerBound..<oldStart
                let newRest = alignLeft ? (newStart + overlap)..<newMiddle.upperBound : newMiddle.lowerBound..<newStart
                let splice = Operation.splice(JSONPath(path), range: oldRest, with: Array(new[newRest]))
                candidate.append(splice)
                cost += splice.cost
            }
            if cost < bestCost {
                best = candidate
                bestCost = cost
            }
        }
        if let (candidate, cost) = identityCandidate(old, new, oldMiddle, newMiddle, path: &path, within: bestCost) {
            best = candidate
            bestCost = cost
        }
        operations.append(contentsOf: best)
    }
}
