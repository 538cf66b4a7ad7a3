import Foundation
import RewindCore
import RewindLog
import Testing

/// `rewind sessions` filters by flow, time, app version, origin and tags, and `--session`
/// takes a session's UUID.
@Suite struct SessionFilterCommandTests {
    enum Tap: String, Codable, Equatable, Sendable, DescribedAction {
        case tap
    }

    static let ids = [
        UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, UUID(uuidString: "0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B")!,
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
    ]

    /// Three sessions: login on 2.3 from CI with a ticket, login on 2.4 from a device, cart on
    /// 2.3 from a developer's machine recorded long ago.
    private static func log(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("team.rewind")
        let now = Date()
        let sessions: [(String, String, Date, SessionMetadata)] = [
            ("a", "login", now, SessionMetadata(app: "Shop", appVersion: "2.3", origin: .ci, tags: ["ticket": "ABC-12", "user": "42"])),
            ("b", "login", now, SessionMetadata(app: "Shop", appVersion: "2.4", origin: .device, tags: ["user": "42"])),
            ("c", "cart", now.addingTimeInterval(-10 * 86_400), SessionMetadata(app: "Shop", appVersion: "2.3", origin: .dev)),
        ]
        for (index, (name, flow, start, metadata)) in sessions.enumerated() {
            let recorder = Recorder<Int, Tap>(
                sink: try SQLiteSink(path: path),
                session: SessionDescriptor(name: name, flow: flow, now: { start }, id: ids[index], metadata: metadata))
            recorder.start(initialState: 0)
            recorder.record(.tap, state: 1, step: 1)
            recorder.close()
        }
        return path
    }

    private func names(_ arguments: [String], log: String) throws -> [String] {
        let result = try RewindBinary.run(["sessions", log, "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let sessions = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return sessions.compactMap { $0["name"] as? String }
    }

    @Test func everyFilterGivenMustHold() throws {
        let folder = try TemporaryDirectory()
        let log = try Self.log(in: folder)
        #expect(try names([], log: log) == ["a", "b", "c"])
        #expect(try names(["--flow", "login"], log: log) == ["a", "b"])
        #expect(try names(["--since", "2d"], log: log) == ["a", "b"])
        #expect(try names(["--app-version", "2.3"], log: log) == ["a", "c"])
        #expect(try names(["--origin", "device"], log: log) == ["b"])
        #expect(try names(["--tag", "user=42", "--tag", "ticket=ABC-12"], log: log) == ["a"])
        #expect(try names(["--flow", "cart", "--tag", "user=42"], log: log) == [])
    }

    @Test func jsonCarriesTheIdentityAndMetadataAndSessionTakesTheUUID() throws {
        let folder = try TemporaryDirectory()
        let log = try Self.log(in: folder)
        let listed = try RewindBinary.run(["sessions", log, "--json", "--tag", "ticket=ABC-12"])
        #expect(
            listed.stdout.contains(
                #""metadata":{"app":"Shop","app_build":null,"app_version":"2.3","device":null,"origin":"ci","os":null,"tags":{"ticket":"ABC-12","user":"42"}}"#),
            "\(listed.stdout)")
        #expect(listed.stdout.contains(#""uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF""#))
        let shown = try RewindBinary.run(["log", log, "--session", Self.ids[1].uuidString.lowercased()])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("    1 "), "\(shown.stdout)")
        let count = shown.stdout.split(separator: "\n").count
        #expect(count == 1)
    }

    @Test(arguments: [
        (
            ["--since", "yesterday"],
            #"rewind: invalid --since "yesterday": expected a duration such as 2d, 12h, 30m, or a UTC date such as 2026-11-25 (see 'rewind sessions --help')"#
        ),
        (
            ["--since=-2d"],
            #"rewind: invalid --since "-2d": expected a duration such as 2d, 12h, 30m, or a UTC date such as 2026-11-25 (see 'rewind sessions --help')"#
        ),
        (["--tag", "ticket"], #"rewind: invalid --tag "ticket": expected KEY=VALUE, such as ticket=ABC-12 (see 'rewind sessions --help')"#),
        (["--tag", "=x"], #"rewind: invalid --tag "=x": expected KEY=VALUE, such as ticket=ABC-12 (see 'rewind sessions --help')"#),
    ])
    func badFilterValuesAreOneLineAndExit64(arguments: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        let log = try Self.log(in: folder)
        let result = try RewindBinary.run(["sessions", log] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + "\n")
    }

    @Test func filtersMatchTagsAndNamesAsDataWhateverTheyHold() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("hostile.rewind")
        let hostile = "'; DROP TABLE session; --" + String(repeating: "x", count: 10_000)
        let recorder = Recorder<Int, Tap>(
            sink: try SQLiteSink(path: path),
            session: SessionDescriptor(name: hostile, flow: "f", metadata: SessionMetadata(appVersion: hostile, tags: [hostile: hostile])))
        recorder.start(initialState: 0)
        recorder.close()
        #expect(try names(["--tag", "\(hostile)=\(hostile)", "--app-version", hostile], log: path) == [hostile])
        #expect(try LogReader(path: path).sessions().count == 1)
    }
}
