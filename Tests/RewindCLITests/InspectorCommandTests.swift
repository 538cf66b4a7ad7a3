import Foundation
import RewindJSON
import Testing

/// `sessions`, `log`, `show` and `diff` against the scripted sessions, with exact output.
@MainActor
@Suite struct InspectorCommandTests {
    let folder: TemporaryDirectory
    let log: String

    init() async throws {
        folder = try TemporaryDirectory()
        log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
    }

    private func rewind(_ arguments: String...) async throws -> RewindBinary.Result {
        try await RewindBinary.run(arguments)
    }

    @Test func sessionsListsEverySession() async throws {
        let result = try await rewind("sessions", log)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                #  name                          flow    steps  started (UTC)        duration
                1  login-happy                   login      20  2027-01-15 08:00:00    3.400s
                2  login-invalid-then-fixed      login      28  2027-01-15 08:00:00    4.980s
                3  login-network-error-retry     login      22  2027-01-15 08:00:00    5.820s
                4  photos-happy-browse           photos     24  2027-01-15 08:00:00   11.810s
                5  photos-list-error-retry       photos     16  2027-01-15 08:00:00    2.760s
                6  photos-thumbnail-error-retry  photos     24  2027-01-15 08:00:00    8.475s
                7  app-full                      app        44  2027-01-15 08:00:00   18.510s

                """)
        let json = try await JSONValue(parsing: try rewind("sessions", log, "--json").stdout)
        guard case let .array(sessions) = json else {
            Issue.record("expected an array")
            return
        }
        #expect(sessions.count == 7)
        #expect(sessions[0][JSONPath("name")] == "login-happy")
        #expect(sessions[0][JSONPath("redacted_paths")] == ["action.didUpdatePassword._0", "password"])
    }

    @Test func logPrintsARangeAndFiltersByAction() async throws {
        let range = try await rewind("log", log, "--session", "login-invalid-then-fixed", "--from", "7", "--to", "9")
        #expect(
            range.stdout == """
                    7   +0.980s  login  didUpdatePassword(<redacted 5>)  password: <redacted 4> → <redacted 5>
                    8   +1.580s  login  didTapLogin                      errorMessage + "Please correct the highlighted fields.", isPasswordValid + false, isUsernameValid + false
                    9   +1.720s  login  didUpdateUsername("a")           errorMessage − "Please correct the highlighted fields.", isUsernameValid − false, username: "al" → "a"

                """)
        let taps = try await rewind("log", log, "-s", "4", "--action", "didTap*")
        #expect(
            taps.stdout == """
                   15   +3.450s  photos/thumbnail[3]  didTap       (no change), ⇧ didSelect
                   18   +6.630s  photos/detail        didTapClose  (no change), ⇧ didClose
                   20   +8.630s  photos/thumbnail[7]  didTap       (no change), ⇧ didSelect
                   23  +11.810s  photos/detail        didTapClose  (no change), ⇧ didClose

                """)
        let lines = try await rewind("log", log, "-s", "1", "--json").stdout.split(separator: "\n")
        #expect(lines.count == 20)
        let tap = try JSONValue(parsing: String(lines[17]))
        #expect(tap[JSONPath("action_type")] == "didTapLogin")
        #expect(
            tap[JSONPath("changes")] == [
                ["path": "isPasswordValid", "change": "added", "new": true],
                ["path": "isUsernameValid", "change": "added", "new": true],
                ["path": "status", "change": "changed", "old": "idle", "new": "inFlight"],
            ])
    }

    @Test func showPrintsTheActionAndTheStateOrOneValue() async throws {
        #expect(
            try await rewind("show", log, "8", "-s", "2").stdout == """
                #2 (login-invalid-then-fixed) step 8 of 28, +1.580s
                action: login  didTapLogin
                state: {
                  errorMessage: "Please correct the highlighted fields."
                  isPasswordValid: false
                  isUsernameValid: false
                  password: <redacted 5>
                  status: "idle"
                  username: "al"
                }

                """)
        #expect(
            try await rewind("show", log, "0", "-s", "4", "--path", "photos").stdout == """
                #4 (photos-happy-browse) step 0 of 24
                action: (none: the initial state)
                photos: []

                """)
        let json = try await JSONValue(parsing: try rewind("show", log, "15", "-s", "4", "--path", "photos[2].title", "--json").stdout)
        #expect(
            json == [
                "session": 4, "step": 15, "action_type": "didTap", "origin": "photos/thumbnail[3]",
                "action": ["thumbnail": ["id": 3, "_1": ["didTap": [:]]]], "path": "photos[2].title", "value": "Crimson station",
                "effects": .null,
            ])
        // What else a step asked for: the login tap on a valid form starts the request.
        let tap = try await rewind("show", log, "26", "-s", "2", "--path", "status").stdout.split(separator: "\n")
        #expect(tap.dropFirst() == [#"action: login  didTapLogin"#, #"starts: "auth.login""#, #"status: "inFlight""#])
        let json26 = try await JSONValue(parsing: try rewind("show", log, "26", "-s", "2", "--path", "status", "--json").stdout)
        #expect(json26[JSONPath("effects")] == ["runs": ["auth.login"]])
    }

    @Test func diffNamesTheChangedFieldsByPathInOneLogAndAcrossTwo() async throws {
        #expect(
            try await rewind("diff", log, "7", "8", "--session", "login-invalid-then-fixed").stdout == """
                \(log) #2 (login-invalid-then-fixed) step 7 → \(log) #2 (login-invalid-then-fixed) step 8
                + errorMessage: "Please correct the highlighted fields."
                + isPasswordValid: false
                + isUsernameValid: false

                """)
        let across = try await rewind("diff", "\(log):photos-thumbnail-error-retry:14", "\(log):photos-happy-browse:14")
        #expect(across.status == 0)
        #expect(
            across.stdout == """
                \(log) #6 (photos-thumbnail-error-retry) step 14 → \(log) #4 (photos-happy-browse) step 14
                - photos[id=4].errorMessage: "The network connection was lost (thumbnail[4])."
                + photos[id=4].image: {"height":150,"url":"https://photos.example/thumbs/4.jpg","width":150}
                ~ photos[id=4].status: "failed" → "loaded"

                """)
        let json = try await JSONValue(parsing: try rewind("diff", log, "18", "19", "-s", "4", "--json").stdout)
        #expect(
            json[JSONPath("changes")] == [
                [
                    "path": "detail", "change": "removed",
                    "old": [
                        "image": ["height": 4032, "url": "https://photos.example/full/3.jpg", "width": 3024],
                        "photoID": 3, "status": "loaded", "title": "Crimson station",
                    ],
                ]
            ])
    }
}
