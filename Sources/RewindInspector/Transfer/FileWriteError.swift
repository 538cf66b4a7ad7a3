import Foundation

/// A file that could not be written, in one line naming it (the CLI's exit 74).
public struct FileWriteError: Error, LocalizedError, CustomStringConvertible, Sendable {
    public let description: String

    public init(path: String, _ reason: String) {
        description = "\(path): cannot write: \(reason)"
    }

    public var errorDescription: String? { description }
}
