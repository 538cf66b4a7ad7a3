import Foundation
import PhotoApp
import RewindReplay
import RewindTesting
import Testing

/// Every recording in `recordings/` replays clean against the current reducers: CI guards the
/// flows' behaviour.
@Suite struct CommittedRecordingsTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("recordings")

    static var recordings: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".rewind") }.sorted()
    }

    @Test func thereIsARecordingOfEveryScriptedSession() {
        #expect(Self.recordings == ScriptedSession.all.map { "\($0.name).rewind" }.sorted())
    }

    @Test(arguments: recordings)
    func replaysClean(name: String) {
        expectReplay(of: Self.folder.appendingPathComponent(name).path, flows: SeedFlows.registry)
    }
}
