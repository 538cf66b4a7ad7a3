extension JSONDiff {
    /// Compares two arrays by id when both are identified, by index otherwise.
    static func compareArrays(_ old: [JSONValue], _ new: [JSONValue], path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        if let ids = alignedIDs(old, new) {
            return compareAligned(old, new, ids: ids, path: &path, into: &changes)
        }
        if let oldIDs = JSONIdentity.ids(of: old), let newIDs = JSONIdentity.ids(of: new), !(oldIDs.isEmpty && newIDs.isEmpty) {
            return compareByID(old, new, oldIDs: oldIDs, newIDs: newIDs, path: &path, into: &changes)
        }
        compareByIndex(old, new, path: &path, into: &changes)
    }

    /// The ids, when both arrays have the same length and the same id at each index, every
    /// element having one: the common case of elements edited in place, where index pairs are
    /// id pairs.
    private static func alignedIDs(_ old: [JSONValue], _ new: [JSONValue]) -> [JSONValue]? {
        guard old.count == new.count, !old.isEmpty else { return nil }
        var ids: [JSONValue] = []
        ids.reserveCapacity(new.count)
        for (a, b) in zip(old, new) {
            guard let id = JSONIdentity.id(of: b) else { return nil }
            // An unchanged element is its old self: its id needs no second look.
            guard a.sharesStorage(with: b) || JSONIdentity.id(of: a) == id else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// Pairs by index; whether the ids are unique, which decides how the elements are named, is
    /// only worked out once a pair differs, so an unchanged array costs no set of its ids.
    private static func compareAligned(
        _ old: [JSONValue], _ new: [JSONValue], ids: [JSONValue], path: inout [JSONPath.Component], into changes: inout [JSONChange]
    ) {
        var identified: Bool?
        for index in old.indices where !old[index].sharesStorage(with: new[index]) {
            if identified == nil { identified = JSONIdentity.areUnique(ids) }
            path.append(identified == true ? .id(ids[index]) : .index(index))
            compare(old[index], new[index], path: &path, into: &changes)
            path.removeLast()
        }
    }

    private static func compareByID(
        _ old: [JSONValue], _ new: [JSONValue], oldIDs: [JSONValue], newIDs: [JSONValue], path: inout [JSONPath.Component], into changes: inout [JSONChange]
    ) {
        var oldPositions: [JSONValue: Int] = [:]
        oldPositions.reserveCapacity(oldIDs.count)
        for (index, id) in oldIDs.enumerated() { oldPositions[id] = index }
        let newIDSet = Set(newIDs)
        // Of the elements in both, those on a longest run of increasing old positions keep
        // their order; each of the others moved.
        let pairs = newIDs.enumerated().compactMap { newIndex, id in oldPositions[id].map { (old: $0, new: newIndex) } }
        let staying = Set(longestIncreasingSubsequence(pairs.map(\.old)) { -abs(pairs[$0].old - pairs[$0].new) }.map { pairs[$0].old })

        let removed = old.indices.filter { !newIDSet.contains(oldIDs[$0]) }
        var nextRemoved = removed.startIndex
        // Removals are interleaved by index with the rest, so the list reads top to bottom.
        func emitRemovals(upTo index: Int, into changes: inout [JSONChange]) {
            while nextRemoved < removed.endIndex, removed[nextRemoved] <= index {
                let oldIndex = removed[nextRemoved]
                changes.append(JSONChange(path: JSONPath(path + [.id(oldIDs[oldIndex])]), kind: .removed(old[oldIndex])))
                nextRemoved += 1
            }
        }
        for (newIndex, element) in new.enumerated() {
            emitRemovals(upTo: newIndex, into: &changes)
            let id = newIDs[newIndex]
            guard let oldIndex = oldPositions[id] else {
                changes.append(JSONChange(path: JSONPath(path + [.id(id)]), kind: .added(element)))
                continue
            }
            if !staying.contains(oldIndex) {
                changes.append(JSONChange(path: JSONPath(path + [.id(id)]), kind: .moved(from: oldIndex, to: newIndex)))
            }
            path.append(.id(id))
            compare(old[oldIndex], element, path: &path, into: &changes)
            path.removeLast()
        }
        emitRemovals(upTo: .max, into: &changes)
    }

    /// The positions in `values` of one longest strictly increasing subsequence, in order;
    /// among the longest, one of the greatest total `weight`.
    ///
    /// The diff weighs an element by how little its index changed, so that what it reports
    /// moved is what a reader sees move: the elements that travelled farthest. A Fenwick tree
    /// over the values keeps, for each value, the best run ending at or below it: O(n log n).
    static func longestIncreasingSubsequence(_ values: [Int], weight: (Int) -> Int = { _ in 0 }) -> [Int] {
        guard let largest = values.max(), !values.isEmpty else { return [] }
        // (length, total weight, position of the run's last element), compared in that order.
        typealias Run = (length: Int, weight: Int, end: Int)
        func better(_ a: Run, _ b: Run) -> Bool { (a.length, a.weight) > (b.length, b.weight) }
        let offset = -(values.min() ?? 0)
        let none: Run = (0, 0, -1)
        var tree = [Run](repeating: none, count: largest + offset + 2)
        var previous = [Int](repeating: -1, count: values.count)
        var best = none
        for (position, value) in values.enumerated() {
            // The best run ending below this value.
            var before = none
            var node = value + offset
            while node > 0 {
                if better(tree[node], before) { before = tree[node] }
                node -= node & -node
            }
            let run: Run = (before.length + 1, before.weight + weight(position), position)
            previous[position] = before.end
            // On a tie the later run wins: an element moved to the front reads as that move.
            if !better(best, run) { best = run }
            node = value + offset + 1
            while node < tree.count {
                if better(run, tree[node]) { tree[node] = run }
                node += node & -node
            }
        }
        var result: [Int] = []
        var position = best.end
        while position >= 0 {
            result.append(position)
            position = previous[position]
        }
        return result.reversed()
    }
}
