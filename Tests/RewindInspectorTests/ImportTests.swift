import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import Testing

@MainActor
@Suite struct ImportTests {
    /// The export of the log at `log`, as text.
    private func export(_ log: String) throws -> String {
        let exporter = try LogExporter(path: log)
        var text = ""
        try exporter.export(try exporter.sessions(nil)) { text += $0.json.canonicalString + "\n" }
        return text
    }

    /// Exports `log`, imports the export into a fresh log, and returns both exports.
    private func roundTrip(_ log: String, in folder: TemporaryDirectory) throws -> (first: String, second: String, copy: String) {
        let file = folder.path("export.jsonl")
        let first = try export(log)
        try Data(first.utf8).write(to: URL(fileURLWithPath: file))
        let copy = folder.path("copy.rewind")
        _ = try LogImporter(path: file).importSessions(into: copy)
        return (first, try export(copy), copy)
    }

    @Test func theDemoLogSurvivesExportImportExportByteForByte() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let (first, second, copy) = try roundTrip(log, in: folder)
        #expect(first == second)
        #expect(first.contains(#""effects":{"runs":["auth.login"]}"#), "what each step asked for goes along")
        let original = try LogReader(path: log), imported = try LogReader(path: copy)
        #expect(try imported.sessions() == original.sessions(), "numbers, names, flows, times, redacted paths")
        for session in try original.sessions() {
            #expect(
                try imported.events(of: session, steps: 1...session.lastStep) == original.events(of: session, steps: 1...session.lastStep),
                "the same keyframes and patches as the recorder wrote")
        }
    }

    /// The export of the demo log as one of log format `version` would be: its digests chained,
    /// and before format 5 without effects.
    private func olderExport(of log: String, format version: Int, in folder: TemporaryDirectory) throws -> String {
        let older = try export(log).split(separator: "\n").map { line in
            guard case var .object(object) = try JSONValue(parsing: Array(line.utf8)) else { throw CocoaError(.fileReadCorruptFile) }
            if object["format_version"] != nil { object["format_version"] = .int(version) }
            if let state = object["initial_state"] { object["initial_digest"] = .string(state.digest(by: .chained).description) }
            if let state = object["state"] { object["digest"] = .string(state.digest(by: .chained).description) }
            if version < 5 { object["effects"] = JSONValue?.none }
            return JSONValue.object(object).canonicalString
        }
        let file = folder.path("older-\(version).jsonl")
        try Data((older.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// An export of format 4 has no `effects`: its sessions are imported as format 4, their
    /// steps' effects not recorded, never as steps that asked for nothing, and their digests
    /// as they were.
    @Test func anExportOfFormatFourImportsWithItsEffectsNotRecorded() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let file = try olderExport(of: log, format: 4, in: folder)
        let copy = folder.path("copy.rewind")
        _ = try LogImporter(path: file).importSessions(into: copy)
        let reader = try LogReader(path: copy)
        let sessions = try reader.sessions()
        #expect(sessions.count == 7 && sessions.allSatisfy { $0.formatVersion == 4 })
        for session in sessions {
            #expect(try reader.events(of: session, steps: 1...session.lastStep).allSatisfy { $0.effects == nil })
        }
        // Exported again, its digests are those imported; its events say `"effects":null`.
        let again = try export(copy).split(separator: "\n").map { line in
            guard case var .object(object) = try JSONValue(parsing: Array(line.utf8)) else { throw CocoaError(.fileReadCorruptFile) }
            object["effects"] = JSONValue?.none
            return JSONValue.object(object).canonicalString + "\n"
        }
        #expect(again.joined() == (try String(contentsOfFile: file, encoding: .utf8)))
        #expect(try LogChecker(path: copy).check(nil).passed)
    }

    /// An export of format 5 chains its digests: they are checked by that rule, and its sessions
    /// imported in format 6, their digests summed, as the recorder would have written them.
    @Test func anExportOfFormatFiveImportsWithItsDigestsTakenAnew() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let file = try olderExport(of: log, format: 5, in: folder)
        #expect(try String(contentsOfFile: file, encoding: .utf8) != export(log), "the demo's states have arrays, whose digests differ")
        let copy = folder.path("copy.rewind")
        _ = try LogImporter(path: file).importSessions(into: copy)
        #expect(try LogReader(path: copy).sessions().allSatisfy { $0.formatVersion == 6 })
        #expect(try export(copy) == export(log))
        #expect(try LogChecker(path: copy).check(nil).passed)
    }

    @Test func aLongSessionGetsAKeyframeEvery256StepsLikeARecording() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("long.rewind")
        let sink = try SQLiteSink(path: log)
        await RandomSession(flow: "app", seed: 5, steps: 600)?.run(host: RecordingHost(sink: sink), start: .testEpoch)
        try sink.close()
        let (first, second, copy) = try roundTrip(log, in: folder)
        #expect(first == second)
        let session = try LogReader(path: log).session(nil)
        let original = try LogReader(path: log).events(of: session, steps: 1...session.lastStep)
        let imported = try LogReader(path: copy).events(of: session, steps: 1...session.lastStep)
        #expect(imported == original)
        #expect(imported.filter { $0.keyframe != nil }.map(\.step) == [1, 256, 512])
    }

    @Test func aLogWithGapsAndAnUnendedSessionSurvivesTheRoundTrip() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: log)
        let (first, second, copy) = try roundTrip(log, in: folder)
        #expect(first == second)
        let reader = try LogReader(path: copy)
        let sessions = try reader.sessions()
        #expect(sessions.map(\.endedAt) == [nil, Date(timeIntervalSince1970: 1_800_000_000.5)])
        #expect(try reader.gaps(of: sessions[0]).map(\.steps) == [4...6])
        #expect(try reader.events(of: sessions[0], steps: 1...9).filter { $0.keyframe != nil }.map(\.step) == [1, 7])
    }

    @Test func sessionsAreAddedAfterThoseAnExistingLogHolds() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: log)
        // Another log made the same way: the same sessions, other identities.
        let other = folder.path("other.rewind")
        try HandmadeLog.withGaps(at: other)
        let file = folder.path("export.jsonl")
        try Data(try export(other).utf8).write(to: URL(fileURLWithPath: file))
        let added = try LogImporter(path: file).importSessions(into: log)
        #expect(added.map(\.number) == [3, 4])
        #expect(added.map(\.name) == ["gappy", "tail-gap"])
        #expect(added.map(\.steps) == [6, 2])
        #expect(added.map(\.gaps) == [1, 1])
        #expect(try LogReader(path: log).sessions().map(\.name) == ["gappy", "tail-gap", "gappy", "tail-gap"])

        // The same export again adds nothing: each session is named as held already.
        let again = try LogImporter(path: file).importSessions(into: log)
        #expect(again.map(\.number) == [nil, nil] && again.map(\.alreadyHeldAs) == [3, 4])
        #expect(try LogReader(path: log).sessions().count == 4)
    }

    @Test func anOutputThatIsNotALogIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: log)
        let file = folder.path("export.jsonl")
        try Data(try export(log).utf8).write(to: URL(fileURLWithPath: file))
        let notes = folder.path("notes.txt")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: notes))
        #expect(throws: LogError(.invalidArgument, "\(notes) exists and is not a Rewind log; choose another --output")) {
            try LogImporter(path: file).importSessions(into: notes)
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "notes")
    }

    /// The lines of the `tail-gap` session's export, to break one at a time.
    private func tailGapLines(in folder: TemporaryDirectory) throws -> [String] {
        let log = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: log)
        return try export(log).split(separator: "\n").map(String.init).suffix(4)
    }

    @Test(arguments: [
        ("not json", 2, "invalid JSON at byte 0: invalid literal, expected 'null'"),
        ("drop header", 1, "an event line before any session line"),
        ("no digest", 2, #"field "digest" is missing"#),
        ("wrong digest", 3, "step 2 of session 2: the digest 0000000000000001 does not match its state, whose digest is"),
        ("steps back", 3, "step 1 of session 2 does not come after step 1"),
        ("clear secret", 2, "step 1 of session 2 holds a clear value at password, a redacted field"),
        ("other session", 4, "the line belongs to session 9 but follows the header of session 2"),
        ("unknown type", 4, #"unknown type "hole"; expected session, event or gap"#),
    ])
    func aBrokenLineIsNamedAndNothingIsWritten(fault: String, line: Int, message: String) throws {
        let folder = try TemporaryDirectory()
        var lines = try tailGapLines(in: folder)
        switch fault {
        case "not json": lines[1] = "not json"
        case "drop header": lines.removeFirst()
        case "no digest": lines[1] = lines[1].replacingOccurrences(of: #""digest":"[0-9a-f]{16}","#, with: "", options: .regularExpression)
        case "wrong digest":
            lines[2] = lines[2].replacingOccurrences(of: #""digest":"[0-9a-f]{16}""#, with: #""digest":"0000000000000001""#, options: .regularExpression)
        case "steps back": lines[2] = lines[1]
        case "clear secret": lines[1] = try Self.withClearPassword(lines[1])
        case "other session": lines[3] = lines[3].replacingOccurrences(of: #""session":2"#, with: #""session":9"#)
        default: lines[3] = lines[3].replacingOccurrences(of: #""type":"gap""#, with: #""type":"hole""#)
        }
        let file = folder.path("broken.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let output = folder.path("out.rewind")
        do {
            _ = try LogImporter(path: file).importSessions(into: output)
            Issue.record("the import of a broken export succeeded")
        } catch let error as LogError {
            #expect(error.kind == .damaged)
            #expect(error.description.hasPrefix("\(file):\(line): \(message)"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
    }

    @Test func anExportWithoutSessionsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let file = folder.path("empty.jsonl")
        try Data("\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: LogError(.damaged, path: file, "holds no session line; is it the output of rewind export?")) {
            try LogImporter(path: file).verify()
        }
        #expect(throws: LogError.noFile(at: folder.path("none.jsonl"))) {
            try LogImporter(path: folder.path("none.jsonl")).verify()
        }
    }

    /// An event line whose state holds the password in clear, with a digest to match.
    static func withClearPassword(_ line: String) throws -> String {
        guard case .event(var event) = try ExportRecord(json: JSONValue(parsing: line)),
            case .object(var state) = event.state
        else { throw CancellationError() }
        state["password"] = "hunter2"
        event.state = .object(state)
        event.digest = event.state.digest
        return ExportRecord.event(event).json.canonicalString
    }
}
