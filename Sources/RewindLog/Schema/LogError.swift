import Foundation

/// Why a log could not be opened, read or written: what happened (``kind``), where (the file,
/// the session, the step) and the error underneath, if there was one.
///
/// Its description is one line that names them, like
/// `demo.rewind: step 21 is out of range: session #1 (login-happy) has steps 0 through 20`.
/// Match a kind in a `catch` clause, as GRDB's `DatabaseError` allows:
///
/// ```swift
/// do {
///     let state = try reader.state(of: session, at: 12)
/// } catch LogError.notRecorded {
///     // the recorder dropped that step; a gap marker says why
/// } catch let error as LogError where error.kind == .damaged {
///     print(error.step ?? 0, error.underlying ?? error)
/// }
/// ```
public struct LogError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem it is.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }

        /// No file at the path.
        public static let missingFile = Kind("missing file")
        /// The file is not a Rewind log: not SQLite, empty, or another application's database.
        public static let notALog = Kind("not a log")
        /// A Rewind log of a format newer than this library reads.
        public static let newerFormat = Kind("newer format")
        /// A copy of a log whose data is still in a `-wal` file that was not copied with it.
        public static let incomplete = Kind("incomplete")
        /// The file cannot be opened or read at all: a folder, no permission.
        public static let unreadable = Kind("unreadable")
        /// The log holds something no recorder writes: a malformed page, a value of the wrong
        /// type, JSON that does not parse, a patch that does not apply.
        public static let damaged = Kind("damaged")
        /// The step was not recorded: the recorder marked it as a gap.
        public static let notRecorded = Kind("not recorded")
        /// No session, or more than one, answers to the name or number given.
        public static let noSuchSession = Kind("no such session")
        /// The step is outside the session.
        public static let noSuchStep = Kind("no such step")
        /// The state holds nothing at the path given.
        public static let noSuchValue = Kind("no such value")
        /// A path that must name one place names several: an id that more than one element has.
        public static let ambiguousValue = Kind("ambiguous value")
        /// An argument cannot be used: a malformed path or predicate, an output that would
        /// overwrite an input, a flow that is not registered.
        public static let invalidArgument = Kind("invalid argument")
        /// A file could not be created or written.
        public static let cannotWrite = Kind("cannot write")
        /// The closure a walk of the log calls threw an error of its own, which is
        /// ``LogError/underlying``: the log is not at fault.
        public static let stoppedByCaller = Kind("stopped by caller")

        /// Whether `error` is a ``LogError`` of this kind: `catch LogError.damaged { … }`.
        public static func ~= (kind: Kind, error: any Error) -> Bool {
            (error as? LogError)?.kind == kind
        }
    }

    public let kind: Kind
    /// The file, when the error is about one.
    public let path: String?
    /// The line of a text file (an export being imported), when the error is about one.
    public let line: Int?
    /// The session's number in the log, when the error is about one.
    public let session: Int?
    /// The step, when the error is about one.
    public let step: Int?
    /// What happened, in words: the description without the path.
    public let message: String
    /// The error that caused this one, such as SQLite's or the JSON parser's.
    public let underlying: (any Error)?

    /// - Parameters:
    ///   - message: what happened, without the path, which the description puts first.
    package init(
        _ kind: Kind, path: String? = nil, line: Int? = nil, session: Int? = nil, step: Int? = nil, _ message: String,
        underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.path = path
        self.line = line
        self.session = session
        self.step = step
        self.message = message
        self.underlying = underlying
    }

    /// One line: the path (and line), then what happened.
    public var description: String {
        switch (path, line) {
        case let (path?, line?): "\(path):\(line): \(message)"
        case let (path?, nil): "\(path): \(message)"
        default: message
        }
    }
}

extension LogError: Equatable {
    /// Two errors are equal when they say the same about the same place; the underlying
    /// errors are not compared.
    public static func == (lhs: LogError, rhs: LogError) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.line == rhs.line && lhs.session == rhs.session
            && lhs.step == rhs.step && lhs.message == rhs.message
    }
}

extension LogError {
    /// The kinds, for `catch LogError.damaged` and the like.
    public static let missingFile = Kind.missingFile
    public static let notALog = Kind.notALog
    public static let newerFormat = Kind.newerFormat
    public static let incomplete = Kind.incomplete
    public static let unreadable = Kind.unreadable
    public static let damaged = Kind.damaged
    public static let notRecorded = Kind.notRecorded
    public static let noSuchSession = Kind.noSuchSession
    public static let noSuchStep = Kind.noSuchStep
    public static let noSuchValue = Kind.noSuchValue
    public static let ambiguousValue = Kind.ambiguousValue
    public static let invalidArgument = Kind.invalidArgument
    public static let cannotWrite = Kind.cannotWrite
    public static let stoppedByCaller = Kind.stoppedByCaller
}

extension LogError {
    /// `PATH: no such file`.
    package static func noFile(at path: String) -> LogError {
        LogError(.missingFile, path: path, "no such file")
    }

    /// `PATH: step N of session #S was not recorded (see the gaps in `rewind check`)`.
    package static func stepNotRecorded(_ step: Int, of session: SessionSummary, in path: String) -> LogError {
        if let notKept = session.notKept, notKept.contains(step), let text = session.notKeptText {
            // Trimmed by the log's retention: named as such, with where the session starts now.
            return LogError(
                .noSuchStep, path: path, session: session.number, step: step,
                "step \(step) of session \(session.label) is not kept (\(text); the first kept step is \(session.firstKeptStep))")
        }
        return LogError(
            .notRecorded, path: path, session: session.number, step: step,
            "step \(step) of session \(session.label) was not recorded (see the gaps in `rewind check`)")
    }

    /// `PATH: the log is damaged: DETAIL`.
    package static func damage(
        in path: String, _ detail: String, session: Int? = nil, step: Int? = nil, underlying: (any Error)? = nil
    ) -> LogError {
        LogError(.damaged, path: path, session: session, step: step, "the log is damaged: \(detail)", underlying: underlying)
    }

    static func notADatabase(_ path: String, underlying: (any Error)? = nil) -> LogError {
        LogError(.notALog, path: path, "not a Rewind log (not a SQLite database)", underlying: underlying)
    }

    static func notARewindLog(_ path: String, _ detail: String) -> LogError {
        LogError(.notALog, path: path, "not a Rewind log (\(detail))")
    }

    static func missingWAL(_ path: String) -> LogError {
        let name = (path as NSString).lastPathComponent
        return LogError(.incomplete, path: path, "not a whole Rewind log: its data is in \(name)-wal, which is missing (copied while a recorder held it open?)")
    }

    /// A log in WAL mode with its tables but no session, and no `-wal`: a copy of a log made
    /// before its first checkpoint (a new log is born with its tables), or a log whose writer
    /// stopped before it began a session.
    static func missingWALOfEmptyLog(_ path: String) -> LogError {
        let name = (path as NSString).lastPathComponent
        return LogError(
            .incomplete, path: path,
            "not a whole Rewind log: it holds no session, and \(name)-wal, where a recorder writes its steps, is missing (copied while a recorder held it open?)"
        )
    }

    static func truncated(_ path: String, expected: Int, actual: Int) -> LogError {
        LogError(.damaged, path: path, "the log is truncated: its header says \(expected) bytes, the file holds \(actual)")
    }

    static func newerLog(_ path: String, version: Int) -> LogError {
        LogError(.newerFormat, path: path, "written by a newer Rewind (log format \(version); this rewind reads up to \(LogSchema.formatVersion))")
    }
}
