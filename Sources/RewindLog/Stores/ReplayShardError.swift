/// A `--shard` that does not name a part: which text, and what is wrong with it.
public struct ReplayShardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// Not two whole numbers around a slash.
        case notAFraction
        /// No parts: `1/0`.
        case noShards
        /// A part below 1 or above the count: `0/3`, `4/3`.
        case indexOutOfRange
    }

    /// The text as given.
    public let text: String
    public let problem: Problem

    /// One line for the command line: `shard '4/3' is not one of 1/3 to 3/3`.
    public var description: String {
        switch problem {
        case .notAFraction: "shard '\(text)' is not I/N, such as 2/4 (the second of four parts)"
        case .noShards: "shard '\(text)' has no parts; N must be at least 1"
        case .indexOutOfRange: "shard '\(text)' is out of range; I goes from 1 to N"
        }
    }
}
