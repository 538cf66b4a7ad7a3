import Foundation
import RewindCore
import RewindReplay

/// The notes app as Rewind sees it: its flow for replay and the scripted sessions its command
/// line records.
public enum NotesFlows {
    /// The flow's name in the log.
    public static let name = "notes"

    /// Ids as the view would make them, fixed so that every recording of a script is the same.
    public static let groceries = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    public static let trip = UUID(uuidString: "0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B")!
    public static let taxes = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// The time every scripted step is stamped with, so that every recording of a script is
    /// the same.
    static let recordedTime = Date(timeIntervalSince1970: 1_800_000_000)

    /// The flows replay runs.
    public static var registry: ReplayRegistry {
        ReplayRegistry([ReplayFlow(name) { NotesFeature() }])
    }

    /// Every scripted session, for `notes-rewind record notes --script NAME` and `demo`.
    public static var scripts: [SessionScript] {
        [
            SessionScript(
                "notes-basics", flow: name, summary: "adds three notes, renames one, pins one, deletes one",
                initialState: NotesState(), reducer: { NotesFeature() }, now: { recordedTime },
                script: { store in
                    store.send(.addNote(id: groceries, title: "Groceries"))
                    store.send(.addNote(id: trip, title: "Trip to Lisbon"))
                    store.send(.addNote(id: taxes, title: "Taxes"))
                    store.send(.renameNote(id: trip, title: "Trip to Porto"))
                    store.send(.togglePin(id: taxes))
                    store.send(.deleteNote(id: groceries))
                }),
            SessionScript(
                "notes-sign-in", flow: name, summary: "enters a token and signs in with it",
                initialState: NotesState(), reducer: { NotesFeature() }, now: { recordedTime },
                script: { store in
                    store.send(.addNote(id: groceries, title: "Groceries"))
                    store.send(.tokenEntered("nt_home_5b1e77c0"))
                    store.send(.signInTapped)
                    store.send(.renameNote(id: groceries, title: "Groceries for Sunday"))
                }),
        ]
    }
}
