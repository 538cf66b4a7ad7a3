import Foundation
import RewindJSON

/// What a store checks of a session's copy from outside (an upload) beyond its frame: that a
/// reader of this log can read its header and its blocks as they say.
extension StoredSessionCopy {
    /// The log formats a store takes a copy of: 4, the first with blocks, through this build's.
    package static let receivableFormats = 4...LogSchema.formatVersion

    /// Refuses a copy whose header a reader would refuse: a format this build does not read,
    /// or an initial state that is not JSON or does not match its digest by its format's rule
    /// (a reader checks it, so an upload is checked as it will be read).
    package func checkHeader() throws(UploadError) {
        let format = summary.formatVersion
        guard Self.receivableFormats.contains(format), summary.schemaVersion >= 0 else {
            throw UploadError(
                .invalidValue,
                "the session's log format (\(format)) is not one this collector stores (\(Self.receivableFormats.lowerBound) through \(Self.receivableFormats.upperBound))"
            )
        }
        guard let initial = try? JSONValue(parsing: initialState) else { throw UploadError(.invalidValue, "the session's initial state is not JSON") }
        guard initial.digest(by: StateDigest.Rule(logFormat: format)).databaseValue == initialDigest else {
            throw UploadError(.invalidValue, "the session's initial state does not match its digest")
        }
    }

    /// Refuses the copy when one of its blocks does not read as its row says: each is inflated
    /// (never past its stated size) and its records counted against its steps, on every core,
    /// so that a block a collector acknowledges is one a reader can read.
    package func checkBlocks() async throws(UploadError) {
        let blocks = self.blocks
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, blocks.count))
        let problem = await withTaskGroup(of: (Int, String)?.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let validator = BlockValidator()
                    for index in stride(from: worker, to: blocks.count, by: workers) {
                        if let problem = validator.problem(with: blocks[index]) { return (index, problem) }
                    }
                    return nil
                }
            }
            var first: (Int, String)?
            for await found in group {
                if let found, found.0 < first?.0 ?? .max { first = found }
            }
            return first
        }
        if let (index, problem) = problem {
            let block = blocks[index]
            throw UploadError(.badChecksum, "the block of steps \(block.firstStep) through \(block.lastStep) matches its checksum but \(problem)")
        }
    }

    /// The step a session's next block starts at when `last` is the last step stored: the one
    /// after, past any gap (steps the recorder lost) that starts there. `last` and the gaps
    /// are within ``LogBounds`` (a client's are bounded first), so the sum cannot overflow.
    package static func step(after last: Int, gaps: [LoggedGap]) -> Int {
        var next = last + 1
        while let gap = gaps.first(where: { $0.steps.lowerBound == next }) { next = gap.steps.upperBound + 1 }
        return next
    }
}
