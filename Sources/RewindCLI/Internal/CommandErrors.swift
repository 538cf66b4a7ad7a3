import ArgumentParser
import Foundation
import RewindCollector
import RewindLog
import RewindRendering
import RewindReplay
import RewindReport
import RewindTeamStore
import RewindUpload

/// Turns every error a command ends with into one line on standard error and a sysexits exit
/// code: the only place where errors become exit codes.
enum CommandErrors {
    /// Prints `error` as `NAME: <line>` (help and version go to standard output, whole) and
    /// returns the exit status.
    static func report(_ error: any Error, commandName: String) -> Int32 {
        switch error {
        case let error as LogError:
            return fail(error.description, code: exitCode(error.kind), commandName: commandName)
        case let error as StoreError:
            return fail(error.description, code: exitCode(error.kind), commandName: commandName)
        case let error as CollectorError:
            return fail(error.description, code: exitCode(error), commandName: commandName)
        case let error as UploadError:
            // A copy the store refused (steps that disagree with its own): data, as a damaged log.
            return fail(error.description, code: 65, commandName: commandName)
        case let error as ReportError:
            // Too large or ambiguous: a request to narrow, like a step out of range.
            return fail(error.description, code: 64, commandName: commandName)
        case let error as TestWriterError:
            // A window outside the session, a reducer with no name: a request to change (64);
            // a session that lacks what a test asserts, or does not decode: its data (65).
            let code: Int32 = error.kind == .invalidWindow || error.kind == .noReducerExpression ? 64 : 65
            return fail(error.description, code: code, commandName: commandName)
        case let error as ExitCode:
            // Already reported by the command, like a failed check or replay.
            return error.rawValue
        default:
            break
        }
        let code = RootCommand.exitCode(for: error).rawValue
        if code == 0 {
            // --help, --version: argument-parser's text, as is.
            print(RootCommand.fullMessage(for: error))
            return 0
        }
        if code == ExitCode.validationFailure.rawValue {
            return fail(usageLine(for: error), code: 64, commandName: commandName)
        }
        // Anything else a command throws is a file it could not write.
        return fail(oneLine("\(error)"), code: 74, commandName: commandName)
    }

    /// An argument error in one line: argument-parser's message, lower-cased as ours are,
    /// and where to read more (`see 'rewind show --help'`).
    static func usageLine(for error: any Error) -> String {
        var message = oneLine(RootCommand.message(for: error))
        if let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase ?? false {
            message = first.lowercased() + message.dropFirst()
        }
        let full = RootCommand.fullMessage(for: error)
        if let see = full.range(of: "See '"), let end = full[see.upperBound...].firstIndex(of: "'") {
            message += " (see '\(full[see.upperBound..<end])')"
        }
        return message
    }

    /// Prints `NAME: message` on standard error and returns `code`. A message quotes names and
    /// values from the log, and paths and arguments as given: it is escaped whole
    /// (``TerminalText``), having no colour of its own.
    static func fail(_ message: String, code: Int32, commandName: String) -> Int32 {
        FileHandle.standardError.write(Data((TerminalText.escaped("\(commandName): \(message)") + "\n").utf8))
        return code
    }

    /// The first line of `text`, without argument-parser's `Error: ` prefix.
    static func oneLine(_ text: String) -> String {
        var line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// sysexits: 69 a build without the collector, 66 a TLS certificate or key that cannot be
    /// read, 64 a bad request (an app's name, a token not found), 74 a token file that cannot
    /// be read or written.
    static func exitCode(_ error: CollectorError) -> Int32 {
        if error.code == "not_built" { return 69 }
        if error.code == "tls" { return 66 }
        return error.status < 500 ? 64 : 74
    }

    /// sysexits: 64 a location that cannot be read or a session the store lacks, 69 a build
    /// without the store's client, 75 a store that cannot be reached or went away (try again),
    /// 77 credentials it refuses, 65 what it refuses otherwise, a store of a newer Rewind or a
    /// damaged one, 70 anything else.
    static func exitCode(_ kind: StoreError.Kind) -> Int32 {
        switch kind {
        case .invalidLocation, .noSuchSession: 64
        case .notBuilt: 69
        case .unavailable: 75
        case .unauthorized: 77
        case .refused, .newerSchema, .damaged: 65
        default: 70
        }
    }

    /// sysexits: 64 a request the log cannot answer, 65 a file that is not a readable log,
    /// 66 no file, 74 a file that cannot be written, 70 anything else (a verb's own closure
    /// that stopped a walk: a bug of the verb's, not the log's).
    static func exitCode(_ kind: LogError.Kind) -> Int32 {
        switch kind {
        case .missingFile: 66
        case .notALog, .newerFormat, .incomplete, .unreadable, .damaged, .notRecorded: 65
        case .noSuchSession, .noSuchStep, .noSuchValue, .ambiguousValue, .invalidArgument: 64
        case .cannotWrite: 74
        default: 70
        }
    }
}
