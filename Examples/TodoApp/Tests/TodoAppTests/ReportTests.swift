import Foundation
import RewindCLI
import RewindReport
import Testing
import TodoApp

/// The app's recordings as HTML pages: `todo-rewind report`, a failed replay's picture, and
/// `ReportWriter` for a tool of the app's own.
@Suite(.serialized) struct ReportTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")

    @Test func theAppsInspectorWritesAReportOfARecording() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("todo.html").path
        let result = try TodoRewind.run(["report", Package.recording("todo-basics"), "--output", page])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(page) ("))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"<meta name="generator" content="rewind report">"#))
        #expect(html.contains(#""flow":"todo""#))
        #expect(html.contains(#"{"addItem":{"title":"Buy milk"}}"#))
    }

    @Test func aFailedReplayIsWrittenAsAReportOpenedAtItsStep() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let planted = RewindCommandLine(commandName: "todo-rewind", flows: ReplayTests.planted)
        #expect(await planted.run(["replay", Package.recording("todo-basics"), "--report", folder.path]) == 1)
        let html = try String(contentsOfFile: folder.appendingPathComponent("todo-basics-1-todo-basics.html").path, encoding: .utf8)
        #expect(html.contains("Replay diverged at step 4 (todo  renameItem)"))
        #expect(html.contains(#""open":{"session":1,"step":4}"#))
        #expect(html.contains(#""leftTitle":"recorded""#) && html.contains(#""rightTitle":"replayed""#))
    }

    @Test func aToolOfTheAppsOwnWritesAPageWithReportWriter() throws {
        var writer = try ReportWriter(path: Package.recording("todo-sync-retry"))
        writer.maximumSteps = 2
        #expect(throws: ReportError.self) { try writer.page(session: nil) }
        writer.maximumSteps = 100_000
        let page = String(decoding: try writer.page(session: nil, steps: 1...3), as: UTF8.self)
        #expect(page.contains(#""first":1,"flow":"todo""#))
        #expect(page.contains(#""last":3"#))
    }
}
