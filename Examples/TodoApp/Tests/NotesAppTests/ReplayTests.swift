import NotesApp
import RewindCore
import RewindReplay
import RewindTesting
import Testing

/// A recording of the notes app replays through its reducer from the app's own tests, and a
/// planted change fails naming the step and the note by its UUID.
@Suite struct ReplayTests {
    /// A reducer that pins a note when it is renamed: the kind of change replay exists to catch.
    struct PinsOnRename: Reducer {
        let base = NotesFeature()

        func reduce(into state: inout NotesState, action: NotesAction) -> Effect<NotesAction> {
            let effect = base.reduce(into: &state, action: action)
            if case let .renameNote(id, _) = action, let index = state.notes.firstIndex(where: { $0.id == id }) {
                state.notes[index].isPinned = true
            }
            return effect
        }
    }

    @Test func aRecordingReplaysCleanAndAPlantedChangeFailsAtItsStep() throws {
        let folder = try TemporaryFolder()
        let log = try NotesRewind.record("notes-basics", in: folder)
        expectReplay(of: log, flows: NotesFlows.registry)

        let planted = ReplayRegistry([ReplayFlow(NotesFlows.name) { PinsOnRename() }])
        let failure = #expect(throws: ReplayFailure.self) { try verifyReplay(of: log, flows: planted) }
        #expect(
            failure?.description == """
                FAILED  \(log) #1 (notes-basics): diverged at step 4 (notes  renameNote); recorded → replayed:
                  ~ notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].isPinned: false → true
                """)
    }
}
