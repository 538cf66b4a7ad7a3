import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReport
import RewindTestSupport
import Testing

/// The page as a file: hostile recorded strings stay inside the data block as escaped JSON,
/// and the security policy lets only the page's own script run and nothing load.
@Suite struct ReportPageTests {
    static let hostile = [
        "</script><script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<!-- & -->",
    ]

    /// A login session whose username takes each hostile string in turn.
    @MainActor
    static func hostileLog(at path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "<b>hostile</b>", flow: "login", now: { .testEpoch }))
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        let store = Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: [recorder])
        for text in hostile { store.send(.didUpdateUsername(text)) }
        recorder.close()
        try sink.close()
    }

    @Test func recordedMarkupStaysEscapedInsideTheDataBlock() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("hostile.rewind")
        try await Self.hostileLog(at: log)
        let page = try ReportWriter(path: log).page(session: nil)
        let text = String(decoding: page, as: UTF8.self)
        for string in Self.hostile {
            #expect(!text.contains(string), "\(string) is in the page as it is")
        }
        #expect(text.components(separatedBy: "<script").count == 3, "the data block and the script, nothing else")
        #expect(text.components(separatedBy: "</script>").count == 3)
        let data = try ReportData.json(in: page)
        #expect(data[JSONPath("sessions[0].name")] == "<b>hostile</b>")
        #expect(
            data[JSONPath("sessions[0].actions[0][2]")] == .object(JSONObject([("didUpdateUsername", .object(JSONObject([("_0", .string(Self.hostile[0]))])))]))
        )
    }

    @Test func thePolicyNamesThePagesOneScriptByItsHash() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let text = String(decoding: try ReportWriter(path: log).page(session: "1"), as: UTF8.self)
        let policyStart = try #require(text.range(of: #"content="default-src 'none'; script-src 'sha256-"#))
        let hash = String(text[policyStart.upperBound...].prefix { $0 != "'" })
        let scriptStart = try #require(text.range(of: "<script>"))
        let scriptEnd = try #require(text.range(of: "</script>", range: scriptStart.upperBound..<text.endIndex))
        let script = Data(text[scriptStart.upperBound..<scriptEnd.lowerBound].utf8)
        let scriptHash = try Self.sha256sum(script).base64EncodedString()
        #expect(hash == scriptHash, "report.js changed: ReportPage.scriptHash is \"sha256-\(scriptHash)\" now")
        #expect(text.contains("<title>Rewind report: demo.rewind</title>"))
    }

    /// SHA-256 by coreutils' `sha256sum`, to check ours against.
    static func sha256sum(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        process.waitUntilExit()
        var bytes = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
