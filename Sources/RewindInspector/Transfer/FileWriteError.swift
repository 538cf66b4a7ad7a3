import Foundation

/// A file that could not be written: which, why in words, and the error underneath.
public struct FileWriteError: Error, LocalizedError, CustomStringConvertible, Sendable {
    /// The file, or `standard output`.
    public let path: String
    /// Why, in words: `no space left on device`.
    public let reason: String
    /// The error that caused it, when there was one.
    public let underlying: (any Error)?

    public init(path: String, _ reason: String, underlying: (any Error)? = nil) {
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    /// `PATH: cannot write: REASON`.
    public var description: String { "\(path): cannot write: \(reason)" }

    public var errorDescription: String? { description }
}
