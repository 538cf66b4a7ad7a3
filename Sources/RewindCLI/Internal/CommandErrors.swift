import ArgumentParser
import Foundation
import RewindLog

/// Turns the library's errors into one line on standard error and a sysexits exit code.
enum CommandErrors {
    /// Runs `body`; a ``LogError`` becomes `rewind: <line>` and exit 64, 65 or 66, and any
    /// other failure (a file that cannot be written) exit 74.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LogError {
            throw fail(error.description, code: exitCode(error.kind))
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error.localizedDescription, code: 74)
        }
    }

    /// Prints `rewind: message` on standard error and returns the exit code to throw.
    static func fail(_ message: String, code: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("rewind: \(message)\n".utf8))
        return ExitCode(code)
    }

    static func exitCode(_ kind: LogError.Kind) -> Int32 {
        switch kind {
        case .badRequest: 64
        case .unreadable: 65
        case .missingFile: 66
        case .cannotWrite: 74
        }
    }
}
