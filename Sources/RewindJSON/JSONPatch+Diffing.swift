extension JSONPatch {
    /// A small patch turning `old` into `new`.
    ///
    /// Equal subtrees cost nothing. Objects are compared key by key (removed keys become
    /// `remove`, added and changed ones recurse or `set`). Arrays lose their common prefix and
    /// suffix first, so inserting or removing one element anywhere is a single `splice`; what
    /// is left in the middle is either edited element by element (aligned on the left or on
    /// the right, with one `splice` for the surplus) or replaced by one `splice`, whichever
    /// patch is smaller. Values of different types are replaced by one `set`.
    ///
    /// Comparing big equal subtrees is linear in their size, except when they share storage
    /// (as an unchanged part of a state copied from its predecessor does), which is immediate.
    public static func between(_ old: JSONValue, _ new: JSONValue) -> JSONPatch {
        var operations: [Operation] = []
        var path: [JSONPath.Component] = []
        diff(old, new, path: &path, into: &operations)
        return JSONPatch(operations)
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: inout [JSONPath.Component], into operations: inout [Operation]) {
        guard old != new else { return }
        switch (old, new) {
        case let (.object(old), .object(new)):
            diffObjects(old, new, path: &path, into: &operations)
        case let (.array(old), .array(new)):
            diffArrays(old, new, path: &path, into: &operations)
        default:
            operations.append(.set(JSONPath(path), new))
        }
    }

    private static func diffObjects(_ old: JSONObject, _ new: JSONObject, path: inout [JSONPath.Component], into operations: inout [Operation]) {
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
                diff(old.values[i], new.values[j], path: &path, into: &operations)
                path.removeLast()
                i += 1
                j += 1
            }
        }
    }

    private static func diffArrays(_ old: [JSONValue], _ new: [JSONValue], path: inout [JSONPath.Component], into operations: inout [Operation]) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        let overlap = min(oldMiddle.count, newMiddle.count)

        let replacement = Operation.splice(JSONPath(path), range: oldMiddle, with: Array(new[newMiddle]))
        var best = [replacement]
        var bestCost = replacement.cost
        // Aligning the overlap on the left suits edits followed by an insertion or removal,
        // aligning it on the right suits the reverse; equal lengths make them the same.
        let alignments = oldMiddle.count == newMiddle.count ? [true] : [true, false]
        for alignLeft in alignments where overlap > 0 {
            let oldStart = alignLeft ? oldMiddle.lowerBound : oldMiddle.upperBound - overlap
            let newStart = alignLeft ? newMiddle.lowerBound : newMiddle.upperBound - overlap
            var candidate: [Operation] = []
            for offset in 0..<overlap {
                // Elements are edited before the splice, so they still sit at their old index.
                path.append(.index(oldStart + offset))
                diff(old[oldStart + offset], new[newStart + offset], path: &path, into: &candidate)
                path.removeLast()
            }
            if oldMiddle.count != newMiddle.count {
                let oldRest = alignLeft ? (oldStart + overlap)..<oldMiddle.upperBound : oldMiddle.lowerBound..<oldStart
                let newRest = alignLeft ? (newStart + overlap)..<newMiddle.upperBound : newMiddle.lowerBound..<newStart
                candidate.append(.splice(JSONPath(path), range: oldRest, with: Array(new[newRest])))
            }
            let cost = candidate.reduce(0) { $0 + $1.cost }
            if cost < bestCost {
                best = candidate
                bestCost = cost
            }
        }
        operations.append(contentsOf: best)
    }
}
