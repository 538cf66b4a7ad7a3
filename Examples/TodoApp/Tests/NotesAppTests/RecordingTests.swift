import Foundation
import NotesApp
import RewindCore
import RewindJSON
import RewindLog
import Testing

/// The notes app records through the public API with plain `Codable` types and UUID ids.
@MainActor
@Suite struct RecordingTests {
    @Test func plainCodableStatesAreRecordedAsTheyHoldAndTheTokenNeverInClear() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("session.rewind")
        let recorder = Recorder<NotesState, NotesAction>(
            sink: try .sqlite(path: path), session: SessionDescriptor(name: "by-hand", flow: NotesFlows.name))
        let store = Store(initialState: NotesState(), reducer: NotesFeature(), middleware: [recorder])
        store.send(.addNote(id: NotesFlows.trip, title: "Trip"))
        store.send(.renameNote(id: NotesFlows.trip, title: "Trip to Porto"))
        store.send(.tokenEntered("nt_home_0f3c9a11"))
        store.send(.signInTapped)
        recorder.flush()
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("0f3c9a11".utf8)) == nil, "\(file)")
        }
        recorder.close()

        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.lastStep == 4)
        #expect(session.redactedPaths.contains("token"))
        let title = JSONPath(#"notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title"#)
        #expect(try reader.state(of: session, at: 1)[title] == "Trip")
        #expect(try reader.state(of: session, at: 2)[title] == "Trip to Porto")
        #expect(try reader.state(of: session, at: 4)[JSONPath("account.signedIn.workspace")] == "home")
    }

    @Test func anIdOnlyEqualsHidesARenameFromObserveUnlessTheComparisonIsGiven() async throws {
        let store = Store(initialState: NotesState(), reducer: NotesFeature())
        var byEquals: [[String]] = []
        var byTitles: [[String]] = []
        let plain = store.observe(\.notes) { byEquals.append($0.map(\.title)) }
        let titled = store.observe(
            \.notes, removingDuplicates: { $0.map(\.title) == $1.map(\.title) }, onChange: { byTitles.append($0.map(\.title)) })
        store.send(.addNote(id: NotesFlows.trip, title: "Trip"))
        store.send(.renameNote(id: NotesFlows.trip, title: "Trip to Porto"))
        store.send(.togglePin(id: NotesFlows.trip))
        #expect(byEquals == [["Trip"]], "Note's == compares ids: the rename looks like no change")
        #expect(byTitles == [["Trip"], ["Trip to Porto"]])
        _ = (plain, titled)
    }
}
