import Foundation
import Testing

/// `rewind report` at the command line: what it prints, and each way it refuses, in one line
/// with its exit code and without a file left behind.
@Suite struct ReportCommandTests {
    @Test func writesThePageAndSaysWhereToOpenIt() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let page = folder.path("demo.html")
        let result = try await RewindBinary.run(["report", log, "--output", page])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int)
        #expect(result.stdout == "wrote \(page) (\(size >> 10) KB): open it in a browser, file://\(page)\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>"))
        let attributes = try FileManager.default.attributesOfItem(atPath: page)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "created like the log")

        let range = try await RewindBinary.run(["report", log, "-s", "login-happy", "--from", "-5", "--output", page])
        #expect(range.status == 0, "\(range.stderr)")
        let narrowed = try String(contentsOfFile: page, encoding: .utf8)
        #expect(narrowed.contains(#""first":16,"flow":"login","gaps":[],"hasBase":true,"last":20"#))
    }

    @Test func refusalsAreOneLineAndLeaveNoFile() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let page = folder.path("out.html")
        let cases: [([String], Int32, String)] = [
            (["--from", "5", "--to", "9"], 64, "rewind: \(log): holds 7 sessions; choose one with --session NUMBER, NAME or UUID\n"),
            (["-s", "2", "--from", "9", "--to", "5"], 64, "rewind: \(log): --to is step 5, before --from at step 9\n"),
            (
                ["-s", "9"], 64,
                "rewind: \(log): no session 9 (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))\n"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try await RewindBinary.run(["report", log] + arguments + ["--output", page])
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: page), "\(arguments)")
        }
        let overwrite = try await RewindBinary.run(["report", log, "--output", log])
        #expect(overwrite.status == 64)
        #expect(overwrite.stderr == "rewind: \(log): is the log being read; choose another --output\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        let missing = try await RewindBinary.run(["report", folder.path("none.rewind"), "--output", page])
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    @Test func aSessionPastTheLimitIsRefusedSayingHowToNarrowIt() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("long.rewind")
        #expect(try RewindBinary.run(["record", "login", "--random", "--seed", "1", "--steps", "100001", "--output", log]).status == 0)
        let page = folder.path("long.html")
        let refused = try RewindBinary.run(["report", log, "--output", page])
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "rewind: \(log): a report of 100001 steps is more than one page holds (100000); narrow it with --session and --from/--to\n")
        #expect(!FileManager.default.fileExists(atPath: page))
        let narrowed = try RewindBinary.run(["report", log, "--from", "-1000", "--output", page])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
    }
}
