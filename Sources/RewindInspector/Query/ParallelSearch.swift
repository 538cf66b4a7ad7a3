import Foundation
import RewindJSON
import RewindLog

/// A search through a long run of steps on every core, its matches handed over in order.
///
/// The run is cut into parts at keyframes, so that each part but the first starts from a
/// state stored whole and needs nothing from the part before. Workers, each with its own
/// connection, walk the parts in turn; the calling thread hands each part's matches to `body`
/// in step order. Workers stay at most `window` parts ahead of it, which bounds the matches
/// held; once `body` wants no more, or a part fails, they stop after the part at hand.
struct ParallelSearch {
    let reader: LogReader
    let session: SessionSummary
    let predicate: StatePredicate
    /// Steps per part after the first: each part costs a query and a keyframe.
    var partLength = 32_768
    /// The first part is short, so that a search that wants the first match answers soon.
    var firstPartLength = LogInspector.findChunk
    var workers = ProcessInfo.processInfo.activeProcessorCount

    /// Whether `steps` is long enough to be worth cutting.
    func applies(to steps: ClosedRange<Int>) -> Bool {
        workers > 1 && steps.count >= firstPartLength + partLength
    }

    /// The parts of `steps`: the first from `steps`' start, each other from a keyframe.
    func parts(of steps: ClosedRange<Int>) throws(LogError) -> [ClosedRange<Int>] {
        var parts: [ClosedRange<Int>] = []
        var start = steps.lowerBound
        for keyframe in try reader.keyframeSteps(of: session, in: steps) where keyframe >= start + (parts.isEmpty ? firstPartLength : partLength) {
            parts.append(start...(keyframe - 1))
            start = keyframe
        }
        parts.append(start...steps.upperBound)
        return parts
    }

    /// Calls `body` with each match among `steps` (from step 1 on), in order, while it returns
    /// true; returns whether it wants more.
    func run(_ steps: ClosedRange<Int>, _ body: (StateMatch) -> Bool) throws(LogError) -> Bool {
        let parts = try parts(of: steps)
        let board = PartBoard(parts: parts.count, window: 2 * workers)
        let threads = (0..<min(workers, parts.count)).map { _ in
            Thread { [self] in work(on: parts, board: board) }
        }
        for thread in threads { thread.start() }
        // No worker outlives the search: each may be reading the file.
        defer { board.stopAndWaitForWorkers(threads.count) }
        for index in parts.indices {
            let part = board.take(index)
            for match in part.matches where !body(match) {
                return false
            }
            // The matches before a failure come first, as in a search in order.
            if let failure = part.failure { throw failure }
        }
        return true
    }

    private func work(on parts: [ClosedRange<Int>], board: PartBoard) {
        let opened = Result { () throws(LogError) in try LogReader(path: reader.path, verifying: reader.isVerifying) }
        while let index = board.claim() {
            switch opened {
            case let .success(own): board.put(index, search(parts[index], first: index == 0, reader: own, board: board))
            case let .failure(error): board.put(index, PartResult(matches: [], failure: error))
            }
        }
        board.workerEnded()
    }

    private func search(_ part: ClosedRange<Int>, first: Bool, reader: LogReader, board: PartBoard) -> PartResult {
        var found: [StateMatch] = []
        do {
            try walk(part, first: first, reader: reader, board: board) { found.append($0) }
        } catch {
            return PartResult(matches: found, failure: error)
        }
        return PartResult(matches: found, failure: nil)
    }

    private func walk(
        _ part: ClosedRange<Int>, first: Bool, reader: LogReader, board: PartBoard, _ found: (StateMatch) -> Void
    ) throws(LogError) {
        // A part but the first starts at a keyframe, which replaces the state it is given.
        // The workers use every core already: none reads ahead.
        try reader.walkStates(session, steps: part, from: first ? nil : JSONValue.null, parsingActions: false, readingAhead: false) {
            event, state in
            // A search that has what it wants stops its workers within a few milliseconds;
            // the part's result, an error, is then never taken.
            if event.step % 1_024 == 0, board.isStopped { throw CancellationError() }
            guard predicate.matches(state) else { return }
            found(StateMatch(session: session, step: event.step, origin: event.origin, action: event.actionName))
        }
    }
}

/// What a worker found in one part: its matches, and the failure that ended it early.
private struct PartResult: Sendable {
    let matches: [StateMatch]
    let failure: LogError?
}

/// Where a parallel search's workers claim parts and leave their matches, and its caller takes
/// them in order.
///
/// Every field is guarded by `condition`; threads touch them only inside `lock`/`unlock`.
private final class PartBoard: @unchecked Sendable {
    private let condition = NSCondition()
    private let parts: Int
    private let window: Int
    private var nextPart = 0
    private var taken = 0
    private var results: [Int: PartResult] = [:]
    private var stopped = false
    private var endedWorkers = 0

    init(parts: Int, window: Int) {
        self.parts = parts
        self.window = max(1, window)
    }

    /// The next part to walk, once it is within the window; nil when there is none or the
    /// search stopped.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && nextPart < parts && nextPart >= taken + window { condition.wait() }
        guard !stopped, nextPart < parts else { return nil }
        nextPart += 1
        return nextPart - 1
    }

    func put(_ index: Int, _ result: PartResult) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for part `index`'s result and takes it.
    func take(_ index: Int) -> PartResult {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        taken = index + 1
        condition.broadcast()
        return results.removeValue(forKey: index)!
    }

    /// Whether the search wants no more.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    func workerEnded() {
        condition.lock()
        endedWorkers += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Tells the workers to claim nothing more and waits until `workers` have ended.
    func stopAndWaitForWorkers(_ workers: Int) {
        condition.lock()
        stopped = true
        condition.broadcast()
        while endedWorkers < workers { condition.wait() }
        condition.unlock()
    }
}
