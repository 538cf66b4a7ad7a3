import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

/// The flight recorder: a log that keeps the end of each session, and a session sent only when
/// a trigger fires. The destination is a log on this machine, as a collector's store is
/// (`LogFileStore`); `CollectorCommandTests` sends to a running collector.
@MainActor
@Suite struct FlightRecorderTests {
    /// A login store recorded by a flight recorder keeping its last 300 steps.
    @MainActor
    struct Flight {
        let folder: TemporaryDirectory
        let log: String
        let collected: String
        let flight: FlightRecorder<LoginState, LoginAction>
        let store: Store<LoginState, LoginAction>

        init(_ folder: TemporaryDirectory, name: String = "flight", triggers: [ReportTrigger<LoginState, LoginAction>]) throws {
            self.folder = folder
            log = folder.path("device.rewind")
            collected = folder.path("collected.rewind")
            let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
            flight = try FlightRecorder(
                log: log, retention: .lastSteps(300), session: SessionDescriptor(name: name, flow: "login"), triggers: triggers,
                uploadingTo: try LogFileStore(writingTo: collected))
            store = Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: flight.middleware)
        }

        func type(_ count: Int) {
            for index in 0..<count { store.send(.didUpdateUsername("user\(index)")) }
        }

        /// The sessions the collector's store holds.
        func collectedSessions() throws -> [SessionSummary] {
            try LogReader(path: collected).sessions()
        }
    }

    static let signupTrigger = ReportTrigger<LoginState, LoginAction>.output("wants to sign up") { $0 == .output(.userWantsToSignUp) }

    @Test func nothingLeavesTheDeviceUntilATriggerFiresThenTheKeptStepsAndTheRestGoUp() async throws {
        let folder = try TemporaryDirectory()
        let flight = try Flight(folder, triggers: [Self.signupTrigger])
        flight.type(1_000)
        flight.flight.recorder.flush()
        #expect(await flight.flight.settle().isEmpty)
        #expect(try flight.collectedSessions().isEmpty)

        flight.store.send(.didTapSignup)
        let uploads = await flight.flight.settle()
        #expect(uploads.count == 1)
        let outcome = try #require(try uploads.first?.result.get())
        #expect(uploads.first?.report == SessionReport(reason: "wants to sign up", step: 1_001))
        // The step the trigger fired at, and the output's step after it if the recorder had it
        // when the report flushed.
        #expect((1_001...1_002).contains(outcome.storedThrough) && !outcome.alreadyThere)
        let sent = try #require(try flight.collectedSessions().first)
        #expect(sent.report == SessionReport(reason: "wants to sign up", step: 1_001))
        #expect(sent.notKept == 1...(sent.firstKeptStep - 1) && sent.firstKeptStep >= 1_001 - 300 - 256 && sent.firstKeptStep <= 1_001 - 300 + 1)

        // The device goes on and trims past what the collector holds: the close sends the rest,
        // and the collector marks what it never had as not kept.
        flight.type(2_000)
        await flight.flight.close()
        let device = try #require(try LogReader(path: flight.log).sessions().first)
        let whole = try #require(try flight.collectedSessions().first)
        #expect(whole.lastStep == 3_002 && whole.endedAt != nil)
        #expect(device.firstKeptStep > 1_002)
        let sessions = try await RewindBinary.run(["sessions", flight.collected])
        #expect(sessions.stdout.split(separator: "\n").first?.hasSuffix("trimmed                         reported") == true, "\(sessions.stdout)")
        #expect(sessions.stdout.hasSuffix("  at step 1001: wants to sign up\n"), "\(sessions.stdout)")
        let check = try await RewindBinary.run(["check", flight.collected])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stdout.contains(
                "  gaps       ok       steps 1 through \(whole.notKept!.upperBound) and \(outcome.storedThrough + 1) through \(device.firstKeptStep - 1) not kept"
            ),
            "\(check.stdout)")
        let replay = try await RewindBinary.run(["replay", flight.collected])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let page = flight.folder.path("collected.html")
        #expect(try await RewindBinary.run(["report", flight.collected, "--output", page]).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains(#""report":"at step 1001: wants to sign up""#))
        let show = try await RewindBinary.run(["show", flight.collected, "3002"])
        #expect(show.stdout.split(separator: "\n").dropFirst().first == "reported at step 1001: wants to sign up", "\(show.stdout)")
    }

    @Test func aStateTriggerFiresWhereItStartsToHoldAndTheFirstReasonIsKept() async throws {
        let folder = try TemporaryDirectory()
        let flight = try Flight(
            folder,
            triggers: [.state("the form shows an error") { $0.errorMessage != nil }, .action("typed crash") { $0 == .didUpdateUsername("crash") }])
        flight.type(10)
        flight.store.send(.didTapLogin)  // step 11: an empty password, so the form shows an error
        flight.store.send(.didTapLogin)  // still shows it: no second report
        var uploads = await flight.flight.settle()
        #expect(uploads.map(\.report) == [SessionReport(reason: "the form shows an error", step: 11)])
        flight.store.send(.didUpdateUsername("crash"))  // step 13: clears the error, and fires the action trigger
        flight.store.send(.didTapLogin)  // step 14: the error again
        uploads = await flight.flight.settle()
        // The session's report stays the first; each later one sends the steps since.
        #expect(uploads.map(\.report) == Array(repeating: SessionReport(reason: "the form shows an error", step: 11), count: 2))
        // The first of the two flushes may hold step 14 already.
        let through = try uploads.map { try $0.result.get().storedThrough }
        #expect((13...14).contains(through[0]) && through[1] == 14, "\(through)")
        await flight.flight.close()
        #expect(try flight.collectedSessions().map(\.report) == [SessionReport(reason: "the form shows an error", step: 11)])
    }

    @Test func theAppReportsWithAReasonOfItsOwnCutTo1000Bytes() async throws {
        let folder = try TemporaryDirectory()
        let flight = try Flight(folder, triggers: [])
        flight.type(5)
        flight.flight.report(reason: "user tapped Report a problem \u{1B}[31m" + String(repeating: "é", count: 600))
        let uploads = await flight.flight.settle()
        let report = try #require(uploads.first?.report)
        #expect(report.step == 5 && report.reason.utf8.count == 1_000 && report.reason.hasSuffix("é"))
        await flight.flight.close()
        let sessions = try await RewindBinary.run(["sessions", flight.collected])
        #expect(sessions.stdout.contains("at step 5: user tapped Report a problem \\u001b[31mééééééééééééééééééééé…\n"), "\(sessions.stdout)")
        let show = try await RewindBinary.run(["show", flight.collected, "5"])
        #expect(show.stdout.contains("reported at step 5: user tapped Report a problem \\u001b[31m\(String(repeating: "é", count: 483))\n"))
        let json = try await RewindBinary.run(["sessions", flight.collected, "--json"])
        #expect(json.stdout.contains(#""report":{"reason":"user tapped Report a problem \u001b[31méé"#), "\(json.stdout)")
    }

    @Test func aSessionAnEarlierRunLeftUnfinishedIsReportedAndSentAtTheNextLaunch() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("device.rewind")
        // An earlier run, as a crash leaves it: steps committed, no end. Its recorder stays
        // alive (and its session open) until the new run has looked at the log.
        let earlier = Recorder<LoginState, LoginAction>(
            sink: try SQLiteSink(path: log, retention: .lastSteps(300)), session: SessionDescriptor(name: "crashed", flow: "login"))
        let crashed = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))),
            middleware: [earlier])
        for index in 0..<700 { crashed.send(.didUpdateUsername("u\(index)")) }
        earlier.flush()

        let flight = try Flight(folder, name: "next launch", triggers: [])
        let uploads = await flight.flight.settle()
        #expect(uploads.map(\.report) == [SessionReport(reason: "the app did not close the session", step: 700)])
        #expect(try uploads.first?.result.get().storedThrough == 700)
        // Nothing of the new session goes up: no trigger fired.
        flight.type(3)
        await flight.flight.close()
        earlier.close()
        let sent = try flight.collectedSessions()
        #expect(sent.map(\.name) == ["crashed"] && sent.first?.endedAt == nil)
        #expect(try await RewindBinary.run(["replay", flight.collected]).status == 0)
    }

    @Test func aSessionSamplingLeftOutIsNeitherRecordedNorSent() async throws {
        let folder = try TemporaryDirectory()
        var configuration = RecorderConfiguration()
        configuration.sampling = 0
        let flight = try FlightRecorder<LoginState, LoginAction>(
            log: folder.path("device.rewind"), retention: .lastSteps(300), session: SessionDescriptor(name: nil, flow: "login"),
            configuration: configuration, triggers: [Self.signupTrigger], uploadingTo: try LogFileStore(writingTo: folder.path("collected.rewind")))
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))),
            middleware: flight.middleware)
        store.send(.didTapSignup)
        flight.report(reason: "by hand")
        #expect(await flight.settle().isEmpty)
        await flight.close()
        #expect(try LogReader(path: folder.path("collected.rewind")).sessions().isEmpty)
    }

    @Test func aStoreCutsAStaleFrontAtWhatItHolds() {
        let notKept = LoggedGap(steps: 1...13_999, reason: RecordingGap.notKeptReason)
        let held = [LoggedGap(steps: 1...3_999, reason: RecordingGap.notKeptReason)]
        #expect(BlockAdmission.gapsToStore([notKept], storedThrough: 5_000, held: held) == [LoggedGap(steps: 5_001...13_999, reason: "not kept")])
        // Already held, or all before what the store holds: nothing to add.
        #expect(BlockAdmission.gapsToStore([notKept], storedThrough: 5_000, held: held + [LoggedGap(steps: 5_001...13_999, reason: "not kept")]).isEmpty)
        #expect(BlockAdmission.gapsToStore([LoggedGap(steps: 1...4_000, reason: "not kept")], storedThrough: 5_000, held: held).isEmpty)
        // A new store takes the front whole.
        #expect(BlockAdmission.gapsToStore([notKept], storedThrough: 0, held: []) == [notKept])
    }
}
