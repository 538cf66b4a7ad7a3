import Foundation
import RewindInspector
import RewindJSON
import RewindLog
import Testing

@MainActor
@Suite struct ExportTests {
    private func lines(of path: String, session: String? = nil) throws -> [String] {
        let exporter = try LogExporter(path: path)
        var lines: [String] = []
        try exporter.export(try exporter.sessions(session)) { lines.append($0.json.canonicalString) }
        return lines
    }

    /// A session's `"metadata":…` and `"uuid":…` members as its header line must hold them:
    /// the identity is new at each recording, the metadata this process's.
    private static func identity(of path: String, session: String) throws -> (metadata: String, uuid: String) {
        let summary = try LogReader(path: path).session(session)
        let id = try #require(summary.id)
        let metadata = try #require(summary.metadata)
        return (#""metadata":"# + JSONForms.metadata(metadata).canonicalString, #""uuid":""# + id.uuidString + #"""#)
    }

    @Test func aSessionWithATrailingGapExportsItsHeaderEventsAndGapExactly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let initial = HandmadeLog.login("", password: 0)
        let digests = ["a", "aa"].map { HandmadeLog.login($0, password: 0).digest.description }
        let identity = try Self.identity(of: path, session: "tail-gap")
        #expect(
            try lines(of: path, session: "tail-gap") == [
                #"{"ended_at":1800000000.5,"flow":"login","format_version":6,"initial_digest":"\#(initial.digest)","initial_state":{"password":{"$redacted":0},"status":"idle","username":""},\#(identity.metadata),"name":"tail-gap","redacted_paths":["action.didUpdatePassword._0","password"],"schema_version":1,"session":2,"started_at":1800000000.0,"type":"session",\#(identity.uuid)}"#,
                #"{"action":{"didUpdateUsername":{"_0":"a"}},"action_type":"didUpdateUsername","cause":null,"digest":"\#(digests[0])","effects":null,"origin":"login","outputs":[],"session":2,"state":{"password":{"$redacted":0},"status":"idle","username":"a"},"step":1,"time":1800000000.25,"type":"event"}"#,
                #"{"action":{"didUpdateUsername":{"_0":"aa"}},"action_type":"didUpdateUsername","cause":1,"digest":"\#(digests[1])","effects":null,"origin":"login","outputs":[],"session":2,"state":{"password":{"$redacted":0},"status":"idle","username":"aa"},"step":2,"time":1800000000.5,"type":"event"}"#,
                #"{"first_step":3,"last_step":4,"reason":"the log could not be written","session":2,"type":"gap"}"#,
            ])
    }

    @Test func gapLinesComeInStepOrderAndAnUnendedSessionHasANullEnd() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let records = try lines(of: path, session: "gappy").map { try ExportRecord(json: JSONValue(parsing: $0)) }
        let shape = records.map { record -> String in
            switch record {
            case .session(let header): "session \(header.endedAt == nil ? "unended" : "ended")"
            case .event(let event): "event \(event.step)"
            case .gap(let gap): "gap \(gap.steps.lowerBound)-\(gap.steps.upperBound)"
            }
        }
        #expect(shape == ["session unended", "event 1", "event 2", "event 3", "gap 4-6", "event 7", "event 8", "event 9"])
        guard case .event(let last) = records.last else { return }
        #expect(last.state == HandmadeLog.login("aaaaaaaaa", password: 0), "the whole state, rebuilt across the gap")
    }

    @Test func theDemoLogExportsEverySessionInCanonicalLinesWithEveryState() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let reader = try LogReader(path: path)
        let sessions = try reader.sessions()
        let lines = try lines(of: path)
        let identity = try Self.identity(of: path, session: "login-happy")
        #expect(lines.count == sessions.count + sessions.reduce(0) { $0 + $1.eventCount })
        var headers = 0
        for line in lines {
            let value = try JSONValue(parsing: line)
            #expect(value.canonicalString == line, "each line is canonical")
            switch try ExportRecord(json: value) {
            case .session: headers += 1
            case .event(let event):
                let session = try #require(sessions.first { $0.number == event.session })
                #expect(event.state == (try reader.state(of: session, at: event.step)))
                #expect(event.state.digest == event.digest)
            case .gap: Issue.record("the demo log has no gap")
            }
        }
        #expect(headers == 7)
        #expect(!lines.joined().contains("wonderland42"), "secrets stay placeholders")
        #expect(
            lines[0]
                == #"{"ended_at":1800000003.4,"flow":"login","format_version":6,"initial_digest":"d20e1c28c3b6d8ab","initial_state":{"password":{"$redacted":0},"status":"idle","username":""},\#(identity.metadata),"name":"login-happy","redacted_paths":["action.didUpdatePassword._0","password"],"schema_version":1,"session":1,"started_at":1800000000.0,"type":"session",\#(identity.uuid)}"#
        )
    }

    @Test func anExportNeverOverwritesItsLogOrAnotherDatabase() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let exporter = try LogExporter(path: path)
        let spellings = [path, folder.url.appendingPathComponent(".").appendingPathComponent("gaps.rewind").path]
        for spelling in spellings {
            #expect(throws: LogError(.invalidArgument, path: spelling, "is the log being exported; choose another --output")) {
                try exporter.checkOutput(spelling)
            }
        }
        let other = folder.path("other.rewind")
        try HandmadeLog.withGaps(at: other)
        #expect(throws: LogError.self) { try exporter.checkOutput(other) }
        try exporter.checkOutput(folder.path("new.jsonl"))
    }

    @Test func aFileIsWrittenWholeOrNotAtAll() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let output = folder.path("out.jsonl")
        try Data("before".utf8).write(to: URL(fileURLWithPath: output))
        let exporter = try LogExporter(path: path)

        let abandoned = try LineWriter(replacingFileAt: output)
        try exporter.export(try exporter.sessions(nil), to: abandoned)
        abandoned.discard()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "before")

        let writer = try LineWriter(replacingFileAt: output)
        try exporter.export(try exporter.sessions(nil), to: writer)
        try writer.finish()
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text == (try lines(of: path)).map { $0 + "\n" }.joined())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["gaps.rewind", "out.jsonl"])
    }
}
