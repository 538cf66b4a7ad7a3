import Foundation

/// Why a log could not be opened, read or written, in one line that names the file, session
/// or step.
public struct LogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, which decides the CLI's exit code.
    public enum Kind: Sendable, Equatable {
        /// The file does not exist (exit 66).
        case missingFile
        /// The file is not a readable Rewind log of a supported version (exit 65).
        case unreadable
        /// The arguments name something the log does not hold (exit 64).
        case badRequest
        /// A file could not be created or written (exit 74).
        case cannotWrite
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static func missingFile(_ path: String) -> Self {
        Self(.missingFile, "\(path): no such file")
    }

    static func notADatabase(_ path: String) -> Self {
        Self(.unreadable, "\(path): not a Rewind log (not a SQLite database)")
    }

    static func notARewindLog(_ path: String, _ detail: String) -> Self {
        Self(.unreadable, "\(path): not a Rewind log (\(detail))")
    }

    static func missingWAL(_ path: String) -> Self {
        let name = (path as NSString).lastPathComponent
        return Self(.unreadable, "\(path): not a whole Rewind log: its data is in \(name)-wal, which is missing (copied while a recorder held it open?)")
    }

    static func newerFormat(_ path: String, version: Int) -> Self {
        Self(.unreadable, "\(path): written by a newer Rewind (log format \(version); this rewind reads up to \(LogSchema.formatVersion))")
    }

    static func damaged(_ path: String, _ detail: String) -> Self {
        Self(.unreadable, "\(path): the log is damaged: \(detail)")
    }
}
