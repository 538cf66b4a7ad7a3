import PhotoApp
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import Testing

/// A cursor on a session of a freshly recorded demo log; the folder holds the log.
@MainActor
func demoCursor(_ name: String, at step: Int = 0) async throws -> (TimeTravelCursor, TemporaryDirectory) {
    let folder = try TemporaryDirectory()
    let path = folder.path("demo.rewind")
    try await DemoLog.record(into: path)
    let inspector = try LogInspector(path: path)
    return (try TimeTravelCursor(inspector: inspector, session: try inspector.session(name), step: step), folder)
}

@MainActor
@Suite struct TimeTravelCursorTests {
    @Test func movesWithinTheSessionAndStaysPutAtEitherEnd() async throws {
        var (cursor, _) = try await demoCursor("login-invalid-then-fixed")
        #expect(cursor.step == 0)
        #expect(cursor.lastStep == 28)
        let backAtStart = cursor.back()
        #expect(!backAtStart, "nothing before step 0")
        #expect(cursor.step == 0)
        let nextAtStart = cursor.next()
        #expect(nextAtStart)
        #expect(cursor.step == 1)
        cursor.last()
        #expect(cursor.step == 28)
        let nextAtEnd = cursor.next()
        #expect(!nextAtEnd, "nothing after the last step")
        #expect(cursor.step == 28)
        let backAtEnd = cursor.back()
        #expect(backAtEnd)
        #expect(cursor.step == 27)
        try cursor.jump(to: 8)
        #expect(cursor.step == 8)
        cursor.first()
        #expect(cursor.step == 0)
    }

    @Test func refusesStepsOutsideTheSessionNamingTheLogSessionAndStep() async throws {
        var (cursor, folder) = try await demoCursor("login-happy", at: 5)
        let path = folder.path("demo.rewind")
        #expect(throws: LogError(.noSuchStep, path: path, session: 1, step: 21, "step 21 is out of range: session #1 (login-happy) has steps 0 through 20")) {
            try cursor.jump(to: 21)
        }
        #expect(throws: LogError(.noSuchStep, path: path, session: 1, step: -1, "step -1 is out of range: session #1 (login-happy) has steps 0 through 20")) {
            try cursor.jump(to: -1)
        }
        #expect(cursor.step == 5, "a refused jump stays put")
        #expect(throws: LogError(.noSuchStep, path: path, session: 1, step: 99, "step 99 is out of range: session #1 (login-happy) has steps 0 through 20")) {
            try TimeTravelCursor(inspector: cursor.inspector, session: cursor.session, step: 99)
        }
        #expect(throws: LogError.self) { try cursor.diff(from: 21) }
    }

    @Test func readsTheActionTheStateAndTheChangesOfItsStep() async throws {
        var (cursor, _) = try await demoCursor("login-invalid-then-fixed")
        #expect(try cursor.entry() == nil, "step 0 has no action")
        #expect(try cursor.state()["username"] == "")
        try cursor.jump(to: 8)
        let entry = try #require(try cursor.entry())
        #expect(entry.step == 8)
        #expect(entry.name == "didTapLogin")
        #expect(entry.changes.map(\.path.description) == ["errorMessage", "isPasswordValid", "isUsernameValid"])
        #expect(try cursor.value(at: "isUsernameValid") == false)
        #expect(try cursor.value(at: "username") == "al")
        #expect(try cursor.value(at: "missing.field") == nil)
        #expect(try cursor.value(at: .root) == cursor.state())
        #expect(try cursor.diff(from: 7) == entry.changes)
        #expect(try cursor.diff(from: 8).isEmpty)
    }

    @Test func findsTheNextMatchingStepForwardsWithoutWrappingAround() async throws {
        var (cursor, _) = try await demoCursor("login-invalid-then-fixed")
        #expect(try cursor.nextStep(matching: ActionGlob("didTap*")) == 8)
        var found = try cursor.find(ActionGlob("didTap*"))
        #expect(found && cursor.step == 8)
        found = try cursor.find(ActionGlob("didTap*"))
        #expect(found && cursor.step == 26, "the next one, not the current one")
        found = try cursor.find(ActionGlob("didTap*"))
        #expect(!found, "none after 26, and the search does not wrap")
        #expect(cursor.step == 26, "a failed search stays put")
        #expect(try cursor.nextStep(matching: ActionGlob("didUpdateUsername")) == nil, "earlier matches are not found")
        #expect(try cursor.nextStep(matching: ActionGlob("*Response")) == 27)
        cursor.last()
        #expect(try cursor.nextStep(matching: ActionGlob("*")) == nil)
    }

    @Test func searchesALongSessionAcrossReadBatchesLikeAReferenceScan() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("random.rewind")
        let sink = try SQLiteSink(path: path)
        let random = try #require(RandomSession(flow: "app", seed: 5, steps: 1_400))
        await random.run(host: RecordingHost(sink: sink), start: DemoLog.start)
        try sink.close()
        let inspector = try LogInspector(path: path)
        let session = try inspector.session(nil)
        let events = try inspector.reader.events(of: session, steps: 1...session.lastStep)
        var cursor = try TimeTravelCursor(inspector: inspector, session: session)
        var farMatches = 0
        for start in [0, 700, session.lastStep - 1] {
            try cursor.jump(to: start)
            for name in Set(events.map(\.actionName)).sorted() + ["no-such-action"] {
                let expected = events.first { $0.step > start && $0.actionName == name }?.step
                #expect(try cursor.nextStep(matching: ActionGlob(name)) == expected, "\(name) after \(start)")
                if let expected, expected - start > 512 { farMatches += 1 }
            }
        }
        #expect(farMatches > 0, "some match lies beyond the first batch a search reads")
    }
}
