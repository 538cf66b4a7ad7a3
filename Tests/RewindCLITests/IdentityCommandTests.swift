import Foundation
import Testing

/// Selectors at the command line, on the demo log: ids and `[*]` in history, show, diff and
/// find, and each misuse refused in one line with exit 64.
@Suite struct IdentityCommandTests {
    @Test func historyFollowsAPhotoByID() throws {
        let log = try DemoLogFile()
        let result = try log.run(["history", log.path, "photos[id=4].status", "-s", "photos-thumbnail-error-retry"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                    0  (initial)          photos[id=4].status: (absent)
                    2  photosResponse     photos[id=4].status: (absent) → "loading"
                    6  thumbnailResponse  photos[id=4].status: "loading" → "failed"
                   18  didTapRetry        photos[id=4].status: "failed" → "loading"
                   19  thumbnailResponse  photos[id=4].status: "loading" → "loaded"

                """)
    }

    @Test func diffNarrowedToOnePhoto() throws {
        let log = try DemoLogFile()
        let result = try log.run(["diff", log.path, "0", "-1", "-s", "photos-happy-browse", "--path", "photos[id=2]"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                \(log.path) #4 (photos-happy-browse) step 0 → \(log.path) #4 (photos-happy-browse) step 24
                + photos[id=2]: {4 fields}

                """)
    }

    @Test func findRangesOverEveryPhoto() throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path, "--where", #"any(photos[*].status == "failed")"#, "--first"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "#6 photos-thumbnail-error-retry  step 6  thumbnailResponse\n")
    }

    @Test func showListsEveryTitle() throws {
        let log = try DemoLogFile()
        let result = try log.run(["show", log.path, "5", "-s", "photos-happy-browse", "--path", "photos[*].title"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 + 12)
        #expect(lines[2] == #"photos[id=1].title: "Hidden orchard""#)
    }

    @Test(arguments: [
        (
            ["show", "5", "-s", "photos-happy-browse", "--path", "photos[id=99]"],
            "LOG: no value at photos[id=99] in step 5 of session #4 (photos-happy-browse)"
        ),
        (
            ["show", "5", "-s", "photos-happy-browse", "--path", "photos[id=]"],
            #"invalid path "photos[id=]": invalid id: unexpected character ']', expected a value"#
        ),
        (
            ["find", "--where", "photos[*].status"],
            "invalid predicate at column 1: a path with [*] goes inside any(...) or all(...), like any(photos[*].status == true)"
        ),
        (["diff", "0", "1", "-s", "1", "--path", "nope"], "nope names nothing in either state (LOG #1 (login-happy) step 0, LOG #1 (login-happy) step 1)"),
    ])
    func misuseIsOneLineAndExit64(arguments: [String], message: String) throws {
        let log = try DemoLogFile()
        let result = try log.run([arguments[0], log.path] + arguments.dropFirst())
        #expect(result.status == 64)
        let expected = message.replacingOccurrences(of: "LOG", with: log.path)
        #expect(result.stderr == "rewind: \(expected)\n")
        #expect(result.stdout.isEmpty)
    }
}
