#if Servers
import Foundation
import Hummingbird
import RewindRendering

/// Lines for the collector's operator, on standard error: what a 5xx answer does not tell
/// the client (a path, a database's URL, the error as the store gave it).
enum ServerLog {
    /// One line for a request the server failed: `rewind serve: GET /path: 503 store_unavailable: …`.
    /// The path is the client's, so its control characters are escaped.
    static func failure(_ request: Request, _ error: CollectorError) {
        let path = TerminalText.escaped(String(request.uri.path.prefix(256)))
        let line = "rewind serve: \(request.method.rawValue) \(path): \(error.status) \(error.code): \(TerminalText.escaped(error.message))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
#endif
