import RewindJSON
import Testing

@Suite struct JSONDigestMemoTests {
    /// A state patched in place, step after step, as `check` rebuilds one: the memo's digest is
    /// the digest of the value as it is, though the state's containers change under it.
    @Test func aStatePatchedInPlaceGetsTheDigestOfWhatItHolds() throws {
        var random = RandomJSON(seed: 0xD16E57)
        // Beside the random part, enough containers for the memo to remember the tree.
        let fixed = JSONValue.array((0..<JSONDigestMemo.smallestRemembered).map { .object(JSONObject([("id", .int($0))])) })
        func wrapped(_ part: JSONValue) -> JSONValue { .object(JSONObject([("fixed", fixed), ("random", part)])) }
        var source = random.value()
        var state = wrapped(source)
        let memo = JSONDigestMemo()
        var failures: [Int] = []
        for step in 0..<3_000 {
            let next = random.mutated(source, edits: random.int(1...3))
            try state.apply(JSONPatch.between(wrapped(source), wrapped(next)))
            source = next
            if memo.digest(of: state) != state.digest { failures.append(step) }
        }
        #expect(failures.count == 0, "first at step \(failures.first ?? -1) of \(failures.count)")
    }

    /// A state that grows from a few containers to many and shrinks again: hashed whole while
    /// small, remembered once large, right throughout.
    @Test func aStateThatGrowsAndShrinksKeepsItsDigest() throws {
        var state = JSONValue.object(JSONObject([("items", .array([]))]))
        let memo = JSONDigestMemo()
        var failures: [Int] = []
        for step in 0..<2_400 {
            let count = step < 1_200 ? step / 20 : (2_400 - step) / 20
            let items = JSONPath([.key("items")])
            guard case let .array(current)? = state[items] else { throw CancellationError() }
            let operation: JSONPatch.Operation =
                current.count < count
                ? .splice(items, range: current.count..<current.count, with: [.object(JSONObject([("n", .int(step))]))])
                : current.count > count ? .splice(items, range: 0..<1, with: []) : .set(JSONPath([.key("step")]), .int(step))
            try state.apply(JSONPatch([operation]))
            if memo.digest(of: state) != state.digest { failures.append(step) }
        }
        #expect(failures.count == 0, "first at step \(failures.first ?? -1) of \(failures.count)")
    }

    /// A wide state whose elements are edited, removed and inserted one at a time: most of it
    /// is shared from step to step, and the memo forgets what the state no longer holds.
    @Test func aWideStateKeepsItsDigestThroughEditsRemovalsAndInsertions() throws {
        func photo(_ id: Int, _ title: String) -> JSONValue {
            .object(JSONObject([("id", .int(id)), ("title", .string(title)), ("size", .object(JSONObject([("width", 150), ("height", 150)])))]))
        }
        var state = JSONValue.object(JSONObject([("photos", .array((0..<300).map { photo($0, "Photo \($0)") }))]))
        let memo = JSONDigestMemo()
        var random = SplitMix64(seed: 7)
        var failures: [Int] = []
        for step in 0..<2_000 {
            let index = Int.random(in: 0..<290, using: &random)
            let path = JSONPath([.key("photos")])
            let operation: JSONPatch.Operation =
                switch step % 3 {
                case 0: .set(JSONPath([.key("photos"), .index(index), .key("title")]), .string("Renamed \(step)"))
                case 1: .splice(path, range: index..<(index + 1), with: [])
                default: .splice(path, range: index..<index, with: [photo(1_000 + step, "New \(step)")])
                }
            try state.apply(JSONPatch([operation]))
            if memo.digest(of: state) != state.digest { failures.append(step) }
        }
        #expect(failures.count == 0, "first at step \(failures.first ?? -1) of \(failures.count)")
    }
}
