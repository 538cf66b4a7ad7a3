import Foundation
import Testing

@testable import RewindCLI

@Suite struct DemoCommandTests {
    @Test func demoRecordsEverySessionIntoALogAndToursIt() throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(["demo"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let log = folder.path("demo.rewind")
        #expect(FileManager.default.fileExists(atPath: log), "the default log is in the current folder")
        let output = result.stdout
        #expect(output.hasPrefix("Recorded 7 sessions into demo.rewind"))
        for session in [
            "login-happy", "login-invalid-then-fixed", "login-network-error-retry", "photos-happy-browse",
            "photos-list-error-retry", "photos-thumbnail-error-retry", "app-full",
        ] {
            #expect(output.contains(session), "missing \(session)")
        }
        #expect(output.contains("  login  "))
        #expect(output.contains("  photos  "))
        #expect(
            output.contains(
                """
                Diff of #2 (login-invalid-then-fixed), step 7 → 8 (didTapLogin)
                  + errorMessage: "Please correct the highlighted fields."
                  + isPasswordValid: false
                  + isUsernameValid: false
                """))
        #expect(!output.contains("\u{1B}["), "no colour when not on a terminal")
        #expect(!output.contains("wonderland42"), "the password never shows")
        let page = folder.url.appendingPathComponent("demo.html").path
        #expect(
            output.contains(
                """
                In a browser
                  demo.html: every session to step through, with its states, diffs and field histories
                  file://\(page)#session=2&step=8
                """))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"<meta name="generator" content="rewind report">"#))
        #expect(!html.contains("wonderland42"), "nor in the page")
    }

    /// The tour's "Next" commands, run as printed from the folder the demo ran in, `swift run
    /// rewind` standing for the binary under test (as it does after `swift build`).
    @Test func theTourSuggestsCommandsThatRunAsPrinted() throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(["demo"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let next = result.stdout.components(separatedBy: "\nNext\n").last?.split(separator: "\n").map(String.init) ?? []
        #expect(
            next == [
                "  swift run rewind sessions demo.rewind",
                "  swift run rewind log demo.rewind --session login-invalid-then-fixed",
                "  swift run rewind show demo.rewind 8 --session login-invalid-then-fixed",
                "  swift run rewind diff demo.rewind 7 8 --session login-invalid-then-fixed",
                "  swift run rewind step demo.rewind --session login-invalid-then-fixed",
                #"  swift run rewind find demo.rewind --where 'status == "failed"'"#,
                "  swift run rewind replay demo.rewind",
                "  swift run rewind report demo.rewind --session login-invalid-then-fixed --output login-invalid-then-fixed.html",
                "  sqlite3 demo.rewind 'SELECT id, name, flow FROM session'",
            ])
        let hasSQLite = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
        for line in next where hasSQLite || !line.hasPrefix("  sqlite3") {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            // `swift run rewind ARGS` runs the binary under test with ARGS, quoted as printed.
            shell.arguments = ["-c", #"swift() { shift 2; "$REWIND" "$@"; }; "# + line + " > /dev/null"]
            shell.environment = ProcessInfo.processInfo.environment.merging(["REWIND": RewindBinary.url.path]) { $1 }
            shell.currentDirectoryURL = folder.url
            shell.standardInput = FileHandle.nullDevice
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0, "\(line)")
        }
    }

    /// `rewind` alone only where PATH finds this very executable (or a link to it), whatever
    /// folder it was built in; `swift run rewind` otherwise.
    @Test func theTourNamesSwiftRunUnlessPathFindsThisExecutable() throws {
        let folder = try TemporaryDirectory()
        let manager = FileManager.default
        func executable(_ path: String) throws -> String {
            let full = folder.path(path)
            try manager.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(manager.createFile(atPath: full, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
            return full
        }
        let built = try executable("scratch/debug/rewind")
        _ = try executable("other/rewind")
        try manager.createDirectory(atPath: folder.path("links"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: folder.path("links/rewind"), withDestinationPath: built)
        let scratch = folder.path("scratch/debug"), links = folder.path("links"), elsewhere = folder.path("other")

        #expect(Terminal.invocation(of: "rewind", executable: built, path: "/nonexistent:\(scratch)") == "rewind")
        #expect(Terminal.invocation(of: "rewind", executable: built, path: links) == "rewind", "a link on PATH to it")
        #expect(Terminal.invocation(of: "rewind", executable: built, path: "") == "swift run rewind")
        #expect(Terminal.invocation(of: "rewind", executable: built, path: "\(elsewhere):\(scratch)") == "swift run rewind", "PATH finds another first")
        #expect(Terminal.invocation(of: "todo-rewind", executable: built, path: scratch) == "swift run todo-rewind")
    }

    /// With a link to the binary under test on PATH, the tour prints `rewind …`, and those
    /// lines run as printed.
    @Test func theTourSaysRewindAloneWhenPathFindsIt() throws {
        let folder = try TemporaryDirectory()
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/rewind", withDestinationPath: RewindBinary.url.path)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try RewindBinary.run(["demo"], in: folder.url, environment: ["PATH": path])
        #expect(result.status == 0, "\(result.stderr)")
        let next = result.stdout.components(separatedBy: "\nNext\n").last?.split(separator: "\n").map(String.init) ?? []
        #expect(next.first == "  rewind sessions demo.rewind")
        for line in next where line.hasPrefix("  rewind ") {
            let shell = try RewindBinary.run(
                ["-c", line + " > /dev/null"], in: folder.url, environment: ["PATH": path], executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(shell.status == 0, "\(line): \(shell.stderr)")
        }
    }

    @Test func demoReplacesItsOwnReportButNoOtherPage() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("d.rewind")
        let page = folder.path("d.html")
        try Data("<p>my page</p>".utf8).write(to: URL(fileURLWithPath: page))
        let kept = try RewindBinary.run(["demo", "--output", log])
        #expect(kept.status == 0)
        #expect(kept.stderr == "rewind: left \(page) alone: it is not a Rewind report\n")
        #expect(!kept.stdout.contains("In a browser"))
        #expect(try String(contentsOfFile: page, encoding: .utf8) == "<p>my page</p>")

        try FileManager.default.removeItem(atPath: page)
        #expect(try RewindBinary.run(["demo", "--output", log]).status == 0)
        let again = try RewindBinary.run(["demo", "--output", log])
        #expect(again.stderr == "", "its own report is replaced")
        #expect(again.stdout.contains("In a browser"))
    }

    @Test func demoReplacesItsOwnLogButNoOtherFile() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("d.rewind")
        #expect(try RewindBinary.run(["demo", "--output", log]).status == 0)
        let second = try RewindBinary.run(["demo", "--output", log])
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("Recorded 7 sessions"), "replaced, not appended")

        let notes = folder.path("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let refused = try RewindBinary.run(["demo", "--output", notes])
        #expect(refused.status == 64)
        #expect(refused.stderr == "rewind: \(notes) exists and is not a Rewind log; choose another --output\n")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
    }
}
