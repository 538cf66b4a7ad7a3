extension JSONPatch {
    /// A patch of the middle of an array that pairs elements by id, when both sides of the
    /// middle are identified and it costs less than `bound`: so that a moved element costs
    /// two splices and its own size, not an edit of every element it passed.
    ///
    /// Elements gone, and those that moved (the fewest that account for the new order), are
    /// spliced out from the back; the others, already in their new order, are edited where
    /// they then sit; the new and moved ones are spliced in from the front, each landing at
    /// its final index because everything before it is in place.
    static func identityCandidate(
        _ old: [JSONValue], _ new: [JSONValue], _ oldMiddle: Range<Int>, _ newMiddle: Range<Int>, path: inout [JSONPath.Component],
        within bound: Int
    ) -> ([Operation], Int)? {
        guard let oldIDs = JSONIdentity.ids(of: Array(old[oldMiddle])), let newIDs = JSONIdentity.ids(of: Array(new[newMiddle])) else {
            return nil
        }
        var oldPositions: [JSONValue: Int] = [:]
        oldPositions.reserveCapacity(oldIDs.count)
        for (offset, id) in oldIDs.enumerated() { oldPositions[id] = offset }
        let pairs = newIDs.enumerated().compactMap { newOffset, id in oldPositions[id].map { (old: $0, new: newOffset) } }
        let staying = JSONDiff.longestIncreasingSubsequence(pairs.map(\.old)).map { pairs[$0] }
        let stayingOld = Set(staying.map(\.old))
        let stayingNew = Set(staying.map(\.new))

        var operations: [Operation] = []
        var cost = 0
        func add(_ operation: Operation) {
            operations.append(operation)
            cost += operation.cost
        }
        let base = JSONPath(path)
        for run in runs(of: oldIDs.indices.filter { !stayingOld.contains($0) }).reversed() {
            add(.splice(base, range: (oldMiddle.lowerBound + run.lowerBound)..<(oldMiddle.lowerBound + run.upperBound), with: []))
        }
        for (rank, pair) in staying.enumerated() {
            if cost >= bound { return nil }
            let start = operations.count
            path.append(.index(oldMiddle.lowerBound + rank))
            diff(old[oldMiddle.lowerBound + pair.old], new[newMiddle.lowerBound + pair.new], path: &path, into: &operations)
            path.removeLast()
            cost += operations[start...].reduce(0) { $0 + $1.cost }
        }
        for run in runs(of: newIDs.indices.filter { !stayingNew.contains($0) }) {
            let at = newMiddle.lowerBound + run.lowerBound
            add(.splice(base, range: at..<at, with: Array(new[(newMiddle.lowerBound + run.lowerBound)..<(newMiddle.lowerBound + run.upperBound)])))
        }
        return cost < bound ? (operations, cost) : nil
    }

    /// Ascending offsets grouped into runs of consecutive ones.
    private static func runs(of offsets: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for offset in offsets {
            if let last = runs.last, last.upperBound == offset {
                runs[runs.count - 1] = last.lowerBound..<(offset + 1)
            } else {
                runs.append(offset..<(offset + 1))
            }
        }
        return runs
    }
}
