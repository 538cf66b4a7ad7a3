import Foundation
import RewindCLI
import RewindCore
import RewindReplay
import RewindTesting
import Testing
import TodoApp

/// The committed recordings replay through today's reducer: the todo app's regression test.
@Suite struct ReplayTests {
    @Test(arguments: ["todo-basics", "todo-sync-retry", "todo-basics-v1"])
    func aCommittedRecordingStillReplays(name: String) {
        expectReplay(of: Package.recording(name), flows: TodoFlows.registry)
    }

    /// A reducer that forgets to trim titles: the kind of change replay exists to catch.
    struct UntrimmedTitles: Reducer {
        let base = TodoFeature(api: TodoAPI())

        func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
            let effect = base.reduce(into: &state, action: action)
            if case .renameItem = action { state.items = state.items.map { TodoItem(id: $0.id, title: $0.title + "!", isDone: $0.isDone) } }
            return effect
        }
    }

    static let planted = ReplayRegistry([
        ReplayFlow(TodoFlows.name, schemaVersion: TodoFlows.schemaVersion, migrations: [TodoFlows.renameSetFilter]) { UntrimmedTitles() }
    ])

    /// A sync tap that sets the same state but no longer calls the service: every state
    /// matches, and only the work the step asks for tells.
    struct SyncWithoutRequest: Reducer {
        let base = TodoFeature(api: TodoAPI())

        func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
            let effect = base.reduce(into: &state, action: action)
            return action == .syncTapped ? .none : effect
        }
    }

    static let withoutRequest = ReplayRegistry([
        ReplayFlow(TodoFlows.name, schemaVersion: TodoFlows.schemaVersion, migrations: [TodoFlows.renameSetFilter]) { SyncWithoutRequest() }
    ])

    @Test func aSyncThatNoLongerCallsTheServiceFailsNamingTheStepAndTheWork() throws {
        let path = Package.recording("todo-sync-retry")
        let failure = #expect(throws: ReplayFailure.self) { try verifyReplay(of: path, flows: Self.withoutRequest) }
        // Step 2 is a tap without a token, which started nothing when recorded either.
        #expect(failure?.description == #"FAILED  \#(path) #1 (todo-sync-retry): step 4 (todo  syncTapped) no longer starts "todo.sync""#)
    }

    @Test func aPlantedChangeFailsNamingTheStepAndTheField() throws {
        let path = Package.recording("todo-basics")
        let failure = #expect(throws: ReplayFailure.self) { try verifyReplay(of: path, flows: Self.planted) }
        #expect(
            failure?.description == """
                FAILED  \(path) #1 (todo-basics): diverged at step 4 (todo  renameItem); recorded → replayed:
                  ~ items[id=1].title: "Buy oat milk" → "Buy oat milk!"
                  ~ items[id=2].title: "Water the plants" → "Water the plants!"
                  ~ items[id=3].title: "Call Ada" → "Call Ada!"
                """)
    }
}

/// The app's own command line, in this process: what `todo-rewind` runs, with any flows.
@Suite(.serialized) struct CommandLineTests {
    @Test func theAppsCommandLineReplaysItsRecordingsAndFailsOnAPlantedChange() async {
        let recordings = ["todo-basics", "todo-sync-retry"].map(Package.recording)
        let clean = RewindCommandLine(commandName: "todo-rewind", flows: TodoFlows.registry)
        #expect(await clean.run(["replay"] + recordings) == 0)
        let planted = RewindCommandLine(commandName: "todo-rewind", flows: ReplayTests.planted)
        #expect(await planted.run(["replay"] + recordings) == 1)
    }

    @Test func aChangeOfBehaviourIsAFailureOfItsOwnTypeInTheJUnitReport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = folder.appendingPathComponent("replay.xml").path
        let planted = RewindCommandLine(commandName: "todo-rewind", flows: ReplayTests.withoutRequest)
        #expect(await planted.run(["replay", Package.recording("todo-sync-retry"), "--junit", xml]) == 1)
        let report = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(
            report.contains(#"<failure message="step 4 (todo  syncTapped) no longer starts &quot;todo.sync&quot;" type="behaviour_changed">"#),
            "\(report)")
    }

    @Test func theBuiltExecutableReplaysEveryCommittedRecording() throws {
        let result = try TodoRewind.run(["replay"] + ["todo-basics", "todo-sync-retry", "todo-basics-v1"].map(Package.recording))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok ") }, "\(result.stdout)")
    }
}
