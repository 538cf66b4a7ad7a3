/// Zeller's ddmin: a smallest-it-can-find subsequence of items for which a test still fails,
/// one-minimal (no single item can be left out).
///
/// It splits the current failing sequence into `n` chunks, keeps one chunk or one complement
/// that still fails, and splits finer when none does. Each distinct candidate is tested once.
public struct DeltaDebugging<Item: Hashable> {
    /// How many candidates were tested.
    public private(set) var tests = 0
    private var tested: [[Item]: Bool] = [:]
    private let test: ([Item]) throws -> Bool
    private let progress: (_ current: Int, _ tests: Int) -> Void

    /// - Parameters:
    ///   - test: true when a candidate still shows the failure.
    ///   - progress: told the current length and the tests so far after each test.
    public init(test: @escaping ([Item]) throws -> Bool, progress: @escaping (_ current: Int, _ tests: Int) -> Void = { _, _ in }) {
        self.test = test
        self.progress = progress
    }

    /// A failing subsequence of `items`, which must fail.
    public mutating func minimize(_ items: [Item]) throws -> [Item] {
        var current = items
        var granularity = 2
        while current.count >= 2 {
            let chunks = Self.split(current, into: granularity)
            if let chunk = try chunks.first(where: { try fails($0, length: current.count) }) {
                current = chunk
                granularity = 2
                continue
            }
            var reduced = false
            if granularity > 2 {
                for index in chunks.indices {
                    let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
                    if try fails(complement, length: current.count) {
                        current = complement
                        granularity = max(granularity - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if reduced { continue }
            if granularity >= current.count { break }
            granularity = min(current.count, granularity * 2)
        }
        return current
    }

    private mutating func fails(_ candidate: [Item], length: Int) throws -> Bool {
        if let known = tested[candidate] { return known }
        let result = try test(candidate)
        tests += 1
        tested[candidate] = result
        progress(result ? candidate.count : length, tests)
        return result
    }

    /// `items` in `count` chunks of nearly equal length, in order.
    static func split(_ items: [Item], into count: Int) -> [[Item]] {
        let size = items.count / count, extra = items.count % count
        var chunks: [[Item]] = []
        var start = 0
        for index in 0..<count {
            let length = size + (index < extra ? 1 : 0)
            guard length > 0 else { continue }
            chunks.append(Array(items[start..<(start + length)]))
            start += length
        }
        return chunks
    }
}
