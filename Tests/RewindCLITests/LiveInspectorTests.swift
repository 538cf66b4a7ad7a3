import Foundation
import RewindCore
import RewindJSON
import RewindLive
import RewindLog
import RewindTestSupport
import RewindWebDriver
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rewind live`, the real binary on loopback, and a recording store connected to it as an
/// app's would be (`Store(…, live: .inspector(URL))`): steps arrive in order, commands from
/// the page's API move the app's own state as its log says, and nothing is lost when the
/// inspector is killed and started again.
@MainActor @Suite(.serialized, .serversBuild) struct LiveInspectorTests {
    /// Adds numbers, as in RewindLiveTests.
    struct Tally: Reducer, Sendable {
        struct State: Codable, Equatable, Sendable {
            var total = 0
            var count = 0
        }

        enum Action: Codable, Equatable, Sendable, DescribedAction {
            case add(Int)
            var origin: String { "tally" }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            if case .add(let number) = action {
                state.total += number
                state.count += 1
            }
            return .none
        }
    }

    /// `rewind live` on `port` (a free one when 0), keeping sessions in `log`.
    @MainActor final class Inspector {
        let process: BackgroundRewind
        let port: Int
        let code: String?
        /// The log it keeps the sessions in.
        let log: String

        init(log: String, port: Int = 0, host: String = "127.0.0.1", in folder: TemporaryDirectory) async throws {
            guard let binary = TeamStoreBuild.binary else { throw TeamStoreBuild.Missing() }
            self.log = log
            process = try BackgroundRewind(["live", "--listen", "\(host):\(port)", "--log", log], in: folder, executable: binary)
            let output = try await process.waitForOutput { $0.contains("rewind live: open") || $0.contains("rewind: ") }
            guard let line = output.split(separator: "\n").first(where: { $0.contains("rewind live: open") }),
                let colon = line.range(of: "\(host):"),
                let port = Int(line[colon.upperBound...].prefix { $0.isNumber })
            else { throw Failed(output: output) }
            self.port = port
            code = line.range(of: "?code=").map { String(line[$0.upperBound...].prefix { $0.isLetter || $0.isNumber }) }
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

        /// A request to it: the status and the body.
        func request(_ method: String, _ path: String, json: JSONValue? = nil, code: String? = nil) async throws -> (status: Int, body: Data) {
            var request = URLRequest(url: URL(string: url.absoluteString + path)!)
            request.httpMethod = method
            if let json {
                request.httpBody = Data(json.canonicalBytes)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            if let code { request.setValue("Bearer \(code)", forHTTPHeaderField: "Authorization") }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }

        struct Failed: Error, CustomStringConvertible {
            var output: String
            var description: String { "rewind live did not start: \(output)" }
        }
    }

    /// Polls `condition` every 10 ms, at most `tries` times (a minute at least: a bound that
    /// only stops a hung test); whether it came to hold.
    private func eventually(tries: Int = 6_000, _ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<tries {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// How far the inspector holds `id` (0: not at all).
    private func held(_ inspector: Inspector, _ id: UUID) async throws -> Int {
        let (status, body) = try await inspector.request("GET", "/v1/sessions/\(id.uuidString)")
        guard status == 200 else { return 0 }
        guard case .int(let through)? = try JSONValue(parsing: [UInt8](body))[JSONPath("stored_through")] else { return 0 }
        return through
    }

    /// A tally store recording into the folder's `app.rewind`, connected to `inspector`.
    private func tallyStore(
        _ session: SessionDescriptor, in folder: TemporaryDirectory, connectedTo inspector: Inspector, allowsTravel: Bool = false
    ) throws -> Store<Tally.State, Tally.Action> {
        Store(
            initialState: Tally.State(), reducer: Tally(), recordingTo: try .sqlite(path: folder.path("app.rewind")), session: session,
            live: .inspector(inspector.url, allowsTravel: allowsTravel))
    }

    @discardableResult
    private func command(_ inspector: Inspector, _ id: UUID, _ command: LiveCommand) async throws -> Int {
        let (status, body) = try await inspector.request("POST", "/live/sessions/\(id.uuidString)/commands", json: command.json)
        #expect(status == 202, "\(String(decoding: body, as: UTF8.self))")
        guard case .int(let number)? = try JSONValue(parsing: [UInt8](body))[JSONPath("number")] else { return 0 }
        return number
    }

    /// The app's last outcome, as the inspector lists it.
    private func outcome(_ inspector: Inspector, _ id: UUID) async throws -> LiveOutcome? {
        let (_, body) = try await inspector.request("GET", "/live/sessions")
        guard case .array(let sessions)? = try JSONValue(parsing: [UInt8](body))[JSONPath("sessions")] else { return nil }
        for session in sessions where session[JSONPath("id")] == .string(id.uuidString) {
            if let outcome = session[JSONPath("outcome")], outcome != .null { return try LiveOutcome(json: outcome) }
        }
        return nil
    }

    private func state(_ arguments: [String]) async throws -> JSONValue {
        let result = try await RewindBinary.run(arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONValue(parsing: result.stdout)[JSONPath("state")] ?? .null
    }

    @Test func stepsArriveInOrderAndCommandsMoveTheAppAsItsLogSays() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        let path = folder.path("app.rewind")
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = Store(
            initialState: Tally.State(), reducer: Tally(), recordingTo: try .sqlite(path: path), session: session,
            live: .inspector(inspector.url, allowsTravel: true))
        for number in 1...50 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector, session.id) == 50 }, "the inspector holds the 50 steps")

        // The page's data: 50 rows, in order.
        let (status, body) = try await inspector.request("GET", "/live/sessions/\(session.id.uuidString)/data")
        #expect(status == 200)
        guard case .array(let rows)? = try JSONValue(parsing: [UInt8](body))[JSONPath("rows")] else { throw Inspector.Failed(output: "no rows") }
        #expect(rows.compactMap { row -> Int? in if case .int(let step)? = row[JSONPath("[0]")] { step } else { nil } } == Array(1...50))

        // Travel to step 10: the app's state is the log's.
        var number = try await command(inspector, session.id, .travel(step: 10))
        #expect(try await eventually { store.isTravelling })
        store.recorder?.flush()
        #expect(try await JSONValueEncoder().encode(store.state) == (try state(["show", path, "10"])))
        #expect(try await eventually { try await outcome(inspector, session.id)?.number == number })
        #expect(try await outcome(inspector, session.id)?.shownStep == 10)

        // Resume: step 50's state.
        number = try await command(inspector, session.id, .resume)
        #expect(try await eventually { !store.isTravelling })
        #expect(store.state == Tally.State(total: 1_275, count: 50))

        // Skip step 5: the present without it (the todo app's test compares it with `todo-rewind
        // replay --skip`, which knows its flow).
        number = try await command(inspector, session.id, .skip(step: 5))
        #expect(try await eventually { store.isTravelling })
        #expect(store.state == Tally.State(total: 1_270, count: 49))
        #expect(try await eventually { try await outcome(inspector, session.id)?.skipped == [5] })
        number = try await command(inspector, session.id, .unskip(step: 5))
        #expect(try await eventually { !store.isTravelling })

        // Dispatch: recorded with origin inspector.
        _ = try await command(inspector, session.id, .dispatch(action: ["add": ["_0": 1_000]]))
        #expect(try await eventually { store.step == 51 })
        store.recorder?.flush()
        let shown = try JSONValue(parsing: try await RewindBinary.run(["show", path, "51", "--json"]).stdout)
        #expect(shown[JSONPath("origin")] == "inspector")
        #expect(try await eventually { try await held(inspector, session.id) == 51 })
        store.recorder?.close()
    }

    /// The inspector killed mid-session and started again on its log loses no step: the app
    /// sends from where the inspector is.
    @Test func anInspectorKilledAndStartedAgainLosesNoStep() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("inspector.rewind")
        var inspector: Inspector? = try await Inspector(log: log, in: folder)
        let port = try #require(inspector?.port)
        let url = try #require(inspector?.url)
        let path = folder.path("app.rewind")
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = Store(
            initialState: Tally.State(), reducer: Tally(), recordingTo: try .sqlite(path: path), session: session,
            live: .inspector(url, allowsTravel: true))
        for number in 1...25 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector!, session.id) == 25 })
        _ = try await command(inspector!, session.id, .travel(step: 5))
        #expect(try await eventually { store.isTravelling })
        try await command(inspector!, session.id, .resume)
        #expect(try await eventually { !store.isTravelling })
        if let pid = inspector?.process.pid { kill(pid, SIGKILL) }
        _ = try await inspector?.process.waitForExit()
        inspector = nil
        for number in 26...50 { store.send(.add(number)) }
        store.recorder?.close()
        let again = try await Inspector(log: log, port: port, in: folder)
        #expect(try await eventually { try await held(again, session.id) == 50 }, "the rest arrives once the inspector is back")
        let reader = try LogReader(path: log)
        let kept = try reader.session(session.id.uuidString)
        #expect(kept.eventCount == 50 && kept.endedAt != nil)
        #expect(try reader.state(of: kept, at: 50) == ["count": 50, "total": 1_275])
        // The inspector started again numbers its commands from 1 again; the app, which had seen
        // 2, still takes them.
        #expect(try await command(again, session.id, .travel(step: 10)) == 1)
        #expect(try await eventually { store.isTravelling }, "the first command of the new run is carried out")
        #expect(store.state == Tally.State(total: 55, count: 10))
    }

    /// SIGTERM or SIGINT ends the inspector with an app polling it and a page listening: the
    /// app's long poll is answered and the page's stream ended, not waited for; started again,
    /// the inspector gets the app back by itself. (The seconds it takes are docs/live.md's.)
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheInspectorWithAnAppAndAPageConnected(signal: Int32) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("inspector.rewind")
        let inspector = try await Inspector(log: log, in: folder)
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = try tallyStore(session, in: folder, connectedTo: inspector, allowsTravel: true)
        for number in 1...10 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector, session.id) == 10 })
        // A command carried out: the app polls this inspector.
        let number = try await command(inspector, session.id, .travel(step: 4))
        #expect(try await eventually { try await outcome(inspector, session.id)?.number == number })
        let page = try await LocalHTTP.stream(port: inspector.port, path: "/live/events", timeout: 60)
        defer { page.close() }
        #expect(try await page.read(until: ": listening").contains(": listening"))

        kill(inspector.process.pid, signal)
        #expect(try await inspector.process.waitForExit() == 0)
        // Read to its end: the server closed the page's stream (a stream left open would give
        // "no answer in time" after the read's 60 s).
        _ = try await page.readToEnd()

        let again = try await Inspector(log: log, port: inspector.port, in: folder)
        try await command(again, session.id, .resume)
        #expect(try await eventually { !store.isTravelling }, "the app polls the inspector started again")
        for number in 11...20 { store.send(.add(number)) }
        #expect(try await eventually { try await held(again, session.id) == 20 })
        store.recorder?.close()
    }

    /// `rewind demo --live URL` plays the photo app's seven sessions into the inspector, each
    /// store connected as an app's would be and travelled from the page's API; Ctrl-C ends them,
    /// and the log replays clean.
    @Test func theDemoPlaysItsSessionsLiveAndTheyTravel() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        guard let binary = TeamStoreBuild.binary else { throw TeamStoreBuild.Missing() }
        let log = folder.path("demo.rewind")
        let demo = try BackgroundRewind(
            ["demo", "--live", inspector.url.absoluteString, "--pace-ms", "0", "--output", log], in: folder, executable: binary)
        let output = try await demo.waitForOutput { $0.contains("every session played") || $0.contains("rewind: ") }
        #expect(output.contains("rewind demo: every session played"), "\(output)")
        var listed: [JSONValue] = []
        #expect(
            try await eventually {
                let (_, body) = try await inspector.request("GET", "/live/sessions")
                guard case .array(let sessions)? = try JSONValue(parsing: [UInt8](body))[JSONPath("sessions")] else { return false }
                listed = sessions
                return sessions.count == 7
            })
        guard case .string(let text)? = listed.first?[JSONPath("id")], let id = UUID(uuidString: text) else { throw Inspector.Failed(output: "no id") }
        let number = try await command(inspector, id, .travel(step: 3))
        #expect(try await eventually { try await outcome(inspector, id)?.number == number })
        let travelled = try await outcome(inspector, id)
        #expect(travelled?.refusal == nil && travelled?.shownStep == 3 && travelled?.travelling == true)

        kill(demo.pid, SIGINT)
        #expect(try await demo.waitForExit() == 0)
        let replay = try await RewindBinary.run(["replay", log])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let sessions = try LogReader(path: log).sessions()
        #expect(sessions.count == 7 && sessions.allSatisfy { $0.endedAt != nil })
        for session in sessions {
            let id = try #require(session.id)
            #expect(try await eventually { try await held(inspector, id) == session.lastStep }, "\(session.label)")
        }

        // The app is gone: a command to it gives up after `--wait` and says so in one line.
        let step = try await RewindBinary.run(
            ["step", inspector.log, "-s", text, "--live", inspector.url.absoluteString, "--wait", "1"], input: "travel 2\nquit\n")
        #expect(step.stdout.contains("the app did not answer command \(number + 1) within 1.0 seconds: is it still connected?"), "\(step.stdout)")
    }

    /// `rewind step --live` on the inspector's log: the lines typed at the stepper (piped here)
    /// send the app through time, each answered with what the app says.
    @Test func stepLiveSendsTheAppThroughTime() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("inspector.rewind")
        let inspector = try await Inspector(log: log, in: folder)
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = try tallyStore(session, in: folder, connectedTo: inspector, allowsTravel: true)
        for number in 1...20 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector, session.id) == 20 })
        let input = """
            jump 10
            travel
            skip 3
            resume
            dispatch {"add": {"_0": 100}}
            travel 99
            skip nine
            dispatch {"add":
            dispatch {"fly": 1}
            quit

            """
        let url = inspector.url.absoluteString
        // The store answers the commands on the main actor, which the run leaves free
        // (``RewindBinary/offTheMainActor(_:)``); tests beside this one may still hold it while
        // they compute, so each command waits 120 s rather than 10.
        let step = try await RewindBinary.run(["step", log, "--live", url, "--wait", "120"], input: input)
        #expect(step.status == 0, "\(step.stderr)")
        let replies = step.stdout.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("the ") || $0.hasPrefix("skip ") || $0.hasPrefix("dispatch ")
        }
        #expect(replies.count == 8, "\(step.stdout)")
        #expect(
            Array(replies.prefix(7)) == [
                "the app shows step 10, paused at step 20 (0 actions held)",
                "the app shows its present without step 3, paused at step 20 (0 actions held)",
                "the app is at step 20, in its present",
                "the app is at step 21, in its present",
                "the app refused: step 99 is not in the session, which is at step 21",
                "skip takes a step number from 0, not 'nine'",
                "the action is not JSON: " + (replies.count > 6 ? String(replies[6].dropFirst("the action is not JSON: ".count)) : ""),
            ])
        #expect(replies.last == "the app refused: LiveInspectorTests.Tally.Action has no case 'fly' (removed or renamed?)", "\(replies)")
        #expect(store.step == 21 && !store.isTravelling && store.state.total == 310)
        store.recorder?.close()

        // Without an inspector to send to, one line says so.
        let unreachable = try await RewindBinary.run(["step", log, "--live", "http://127.0.0.1:9"], input: "travel 1\nquit\n")
        #expect(unreachable.stdout.contains("cannot reach the inspector at http://127.0.0.1:9: "), "\(unreachable.stdout)")
        let misuse = try await RewindBinary.run(["step", log, "--code", "abc"])
        #expect(misuse.status == 64 && misuse.stderr.contains("--code goes with --live"), "\(misuse.stderr)")
        for (arguments, message) in [
            (["--wait", "5"], "--wait goes with --live"), (["--live", url, "--wait", "0"], "--wait takes 1 to 600 seconds, not 0"),
            (["--live", url, "--wait", "601"], "--wait takes 1 to 600 seconds, not 601"),
        ] {
            let refused = try await RewindBinary.run(["step", log] + arguments)
            #expect(refused.status == 64 && refused.stderr.hasPrefix("rewind: \(message)"), "\(refused.stderr)")
        }
    }

    /// An app that does not allow travel refuses every command, and the inspector says so.
    @Test func anAppWithoutTheOptInRefusesTravel() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = try tallyStore(session, in: folder, connectedTo: inspector)
        for number in 1...5 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector, session.id) == 5 })
        let number = try await command(inspector, session.id, .travel(step: 2))
        #expect(try await eventually { try await outcome(inspector, session.id)?.number == number })
        #expect(try await outcome(inspector, session.id)?.refusal == "this app does not allow travel (LiveInspectorLink.allowsTravel is off)")
        #expect(!store.isTravelling && store.state.count == 5)
        store.recorder?.close()
    }

    /// Beyond loopback the inspector asks for its pairing code; without it nothing is answered.
    @Test func anUnpairedClientIsRefused() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), host: "0.0.0.0", in: folder)
        let code = try #require(inspector.code)
        #expect(code.count == 12)
        for path in ["/", "/live/sessions", "/v1/sessions/\(UUID().uuidString)"] {
            let (status, body) = try await inspector.request("GET", path)
            #expect(status == 401 && RunningCollector.errorCode(body) == "unpaired", "\(path)")
        }
        #expect(try await inspector.request("GET", "/", code: "wrong-code-00").status == 401)
        #expect(try await inspector.request("GET", "/", code: code).status == 200)
        #expect(try await inspector.request("GET", "/live/sessions?code=\(code)").status == 200)
    }

    /// A command is JSON from the inspector's own page: a cross-site form's post is refused.
    @Test func aCommandFromAnotherSiteIsRefused() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        var request = URLRequest(url: URL(string: inspector.url.absoluteString + "/live/sessions/\(UUID().uuidString)/commands")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"command":"resume"}"#.utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let (_, plain) = try await URLSession.shared.data(for: request)
        #expect((plain as? HTTPURLResponse)?.statusCode == 415)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("https://evil.example", forHTTPHeaderField: "Origin")
        let (_, foreign) = try await URLSession.shared.data(for: request)
        #expect((foreign as? HTTPURLResponse)?.statusCode == 403)
        let (status, body) = try await inspector.request("POST", "/live/sessions/\(UUID().uuidString)/commands", json: ["command": "fly"])
        #expect(status == 400)
        #expect(String(decoding: body, as: UTF8.self).contains("no command is called \\\"fly\\\""))
    }

    /// A page asks for the steps after the last it holds: the answer holds those alone, at
    /// most 4,096, without the state before them; from 0, or past the session's end, it starts
    /// anew with that state. A cursor that is not a step number is refused with a JSON body.
    @Test func aPageLoadsTheStepsAfterItsCursor() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = try tallyStore(session, in: folder, connectedTo: inspector)
        for number in 1...5_000 { store.send(.add(number)) }
        #expect(try await eventually { try await held(inspector, session.id) == 5_000 })
        let data = "/live/sessions/\(session.id.uuidString)/data"
        func load(_ query: String) async throws -> JSONValue {
            let (status, body) = try await inspector.request("GET", data + query)
            #expect(status == 200, "\(query): \(String(decoding: body, as: UTF8.self))")
            return try JSONValue(parsing: [UInt8](body))
        }
        func steps(_ part: JSONValue) -> [Int] {
            guard case .array(let rows)? = part[JSONPath("rows")] else { return [] }
            return rows.compactMap { if case .int(let step)? = $0[JSONPath([.index(0)])] { step } else { nil } }
        }

        let tail = try await load("?after=4997")
        #expect(steps(tail) == [4_998, 4_999, 5_000])
        #expect(tail[JSONPath("after")] == 4_997 && tail[JSONPath("through")] == 5_000 && tail[JSONPath("lastStep")] == 5_000)
        #expect(tail[JSONPath("hasBase")] == false && tail[JSONPath("base")] == JSONValue.null, "the page holds the state before")
        let nothingNew = try await load("?after=5000")
        #expect(steps(nothingNew) == [] && nothingNew[JSONPath("through")] == 5_000)

        let first = try await load("?after=0")
        #expect(steps(first) == Array(1...4_096), "at most 4,096 steps a load")
        #expect(first[JSONPath("after")] == 0 && first[JSONPath("through")] == 4_096 && first[JSONPath("hasBase")] == true)
        #expect(first[JSONPath("base")] == ["count": 0, "total": 0])
        let rest = try await load("?after=4096")
        #expect(steps(rest) == Array(4_097...5_000))
        let anew = try await load("?after=9999")
        #expect(anew[JSONPath("after")] == 0 && steps(anew).first == 1, "a cursor past the end starts anew")
        #expect(steps(try await load("")).count == 5_000, "without a cursor, the session whole")

        for query in ["?after=-1", "?after=many", "?after=99999999999999999999"] {
            let (status, body) = try await inspector.request("GET", data + query)
            #expect(status == 400 && RunningCollector.errorCode(body) == "bad_request", "\(query)")
        }
        store.recorder?.close()
    }

    /// A command for a session no app has sent is not queued for nobody: 404, with a JSON body.
    @Test func aCommandForASessionThatIsNotThereIsNotFound() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await Inspector(log: folder.path("inspector.rewind"), in: folder)
        let id = UUID()
        let (status, body) = try await inspector.request("POST", "/live/sessions/\(id.uuidString)/commands", json: LiveCommand.resume.json)
        #expect(status == 404)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"error":{"code":"not_found","message":"no session \#(id.uuidString) here: an app sends its steps before it takes commands"}}"#)
    }
}
