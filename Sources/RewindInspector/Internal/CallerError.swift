import RewindLog

/// The error of a caller's closure that runs inside a walk of the log, kept to come out as it
/// was.
///
/// A walk (``LogReader/walk(_:steps:parsingActions:readingAhead:_:)``) throws only
/// ``LogError``s, and takes any other error its body throws for damage of the log: a caller
/// that stopped a walk by throwing would be told its log is damaged. So the closure runs
/// through ``run(_:)``, which keeps its error, and whoever ran the walk throws
/// ``error`` in place of the walk's.
struct CallerError {
    /// What the caller's closure threw, if it did.
    private(set) var error: (any Error)?

    /// Calls `body`; when it throws, keeps its error and ends the walk with a stand-in that
    /// no caller sees.
    mutating func run<T>(_ body: () throws -> T) throws(LogError) -> T {
        do {
            return try body()
        } catch {
            self.error = error
            throw LogError(.invalidArgument, "the caller's closure threw: \(error)", underlying: error)
        }
    }
}
