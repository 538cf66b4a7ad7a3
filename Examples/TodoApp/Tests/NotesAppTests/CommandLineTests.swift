import Foundation
import NotesApp
import Testing

/// The app's own `notes-rewind`, run as a user would on its recordings with UUID ids.
@Suite struct CommandLineTests {
    @Test func anUnquotedUUIDIsToldToBeQuotedAndTheQuotedOneFollowsTheNote() throws {
        let folder = try TemporaryFolder()
        let log = try NotesRewind.record("notes-basics", in: folder)
        let unquoted = try NotesRewind.run(["history", log, "notes[id=0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B].title"])
        #expect(unquoted.status == 64)
        #expect(
            unquoted.stderr
                == #"notes-rewind: invalid path "notes[id=0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B].title": an id that is not a number, true, false or null is quoted, as in notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title"#
                + "\n")
        let quoted = try NotesRewind.run(["history", log, #"notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title"#])
        #expect(quoted.status == 0, "\(quoted.stderr)")
        #expect(
            quoted.stdout == #"""
                    0  (initial)   notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title: (absent)
                    2  addNote     notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title: (absent) → "Trip to Lisbon"
                    4  renameNote  notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title: "Trip to Lisbon" → "Trip to Porto"

                """#)
    }

    @Test func logKeepsItsColumnsWithUUIDPayloads() throws {
        let folder = try TemporaryFolder()
        let log = try NotesRewind.record("notes-basics", in: folder)
        let result = try NotesRewind.run(["log", log])
        #expect(result.status == 0, "\(result.stderr)")
        // The action column is as wide as its longest action; every change starts below the next.
        #expect(
            result.stdout == #"""
                    1   +0.000s  notes  addNote(id: "6F9619FF-8B86-D011-B42D-00C04FC964FF", …)     notes[id="6F9619FF-8B86-D011-B42D-00C04FC964FF"] + {3 fields}
                    2   +0.000s  notes  addNote(id: "0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B", …)     notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"] + {3 fields}
                    3   +0.000s  notes  addNote(id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", …)     notes[id="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"] + {3 fields}
                    4   +0.000s  notes  renameNote(id: "0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B", …)  notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title: "Trip to Lisbon" → "Trip to Porto"
                    5   +0.000s  notes  togglePin(id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")      notes[id="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"].isPinned: false → true
                    6   +0.000s  notes  deleteNote(id: "6F9619FF-8B86-D011-B42D-00C04FC964FF")     notes[id="6F9619FF-8B86-D011-B42D-00C04FC964FF"] − {3 fields}

                """#)
    }

    @Test func replayPassesTheBasicsAndCallsTheTokenReadUnverifiable() throws {
        let folder = try TemporaryFolder()
        let basics = try NotesRewind.record("notes-basics", in: folder)
        let signIn = try NotesRewind.record("notes-sign-in", in: folder)
        let result = try NotesRewind.run(["replay", basics, signIn])
        #expect(result.status == 0, "\(result.stderr)")
        // The sign-in reads the token's characters, which a replay has only as a placeholder.
        #expect(
            result.stdout == """
                ok      \(basics) #1 (notes-basics): 6 steps replayed, every state matches (6 with redacted fields compared as placeholders)
                ok      \(signIn) #1 (notes-sign-in): 4 steps replayed, every verifiable state matches (4 with redacted fields compared as placeholders; 1 unverifiable: step 3 reads more of a secret than its length)

                """)
    }
}
