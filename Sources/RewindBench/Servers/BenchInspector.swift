import Foundation

/// `rewind live` on a free loopback port, with a log of its own.
final class BenchInspector {
    let url: URL
    let port: UInt16
    private let process = Process()

    /// Nil when this `rewind` has no inspector (built without the trait).
    init?(rewind: String, log: String) throws {
        process.executableURL = URL(fileURLWithPath: rewind)
        process.arguments = ["live", "--listen", "127.0.0.1:0", "--log", log]
        let output = Pipe()
        process.standardError = output
        // Its first line names the port: "rewind live: open http://127.0.0.1:PORT (apps connect …".
        let text = try ChildProcess.firstLine(of: process, output: output)
        guard let start = text.range(of: "open http://127.0.0.1:"),
            let port = UInt16(text[start.upperBound...].prefix { $0.isNumber })
        else {
            process.waitUntilExit()
            if process.terminationStatus == 69 { return nil }
            throw BenchmarkError("rewind live did not start: \(text)")
        }
        self.port = port
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
