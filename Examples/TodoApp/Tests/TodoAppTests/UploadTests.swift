import Foundation
import RewindCore
import Testing
import TodoApp

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app uploads its sessions to a collector, and the session it sent replays from there
/// with the app's own reducers: `rewind serve` of the Rewind package, built with its
/// `Servers` trait (`REWIND_COLLECTOR_BINARY`, or `../../.build-teamstore/debug/rewind`).
/// Skipped when that build is missing, unless `REWIND_REQUIRE_COLLECTOR=1` (CI), where it fails.
@MainActor @Suite(.collector) struct UploadTests {
    @Test func aRecordedSessionGoesUpOnceAndReplaysFromTheCollector() async throws {
        let collector = try Collector()
        defer { collector.stop() }
        let path = collector.folder.appendingPathComponent("session.rewind").path
        let store = try TodoStore.make(api: TodoAPI(), logPath: path, name: "uploaded")
        store.send(.addItem(title: "Buy milk"))
        store.send(.addItem(title: "Call Ada"))
        store.send(.toggleItem(id: 1))
        store.recorder?.close()

        let sent = try await TodoUploads.send(log: path, to: collector.url, token: collector.upload)
        #expect(sent.count == 1 && sent[0].storedThrough == 3 && sent[0].added == 1 && !sent[0].alreadyThere)
        let again = try await TodoUploads.send(log: path, to: collector.url, token: collector.upload)
        #expect(again.count == 1 && again[0].alreadyThere)

        let link = "\(collector.url.absoluteString)/sessions/\(sent[0].session.uuidString)"
        let replayed = try TodoRewind.run(["replay", link], environment: ["REWIND_TOKEN": collector.read])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("uploaded"), "\(replayed.stdout)")
    }

    /// The flight recorder: nothing goes up while syncs succeed; the sync that fails sends the
    /// session's last steps, and the collector's copy replays with the app's reducers from its
    /// first kept state.
    @Test func aFailedSyncSendsTheKeptEndOfTheSessionWhichReplaysFromTheCollector() async throws {
        let collector = try Collector()
        defer { collector.stop() }
        let path = collector.folder.appendingPathComponent("flight.rewind").path
        let (store, flight) = try TodoFlight.make(
            api: TodoAPI(failingCalls: [2]), logPath: path, name: "flight", retention: .lastSteps(100), collector: collector.url,
            token: collector.upload, execution: .manual)
        store.send(.tokenEntered(Secret("todo-api-token-0001")))
        for index in 1...300 { store.send(.addItem(title: "Item \(index)")) }
        store.send(.syncTapped)
        await store.settle()  // the first sync succeeds: nothing is sent
        #expect(await flight.settle().isEmpty)
        for index in 1...300 { store.send(.toggleItem(id: index)) }
        store.send(.syncTapped)
        await store.settle()  // the second fails: the trigger sends the session
        let sent = await flight.settle()
        #expect(sent.map(\.report.reason) == ["sync failed"])
        let outcome = try #require(try sent.first?.result.get())
        #expect(outcome.storedThrough == 605)
        await flight.close()

        let link = "\(collector.url.absoluteString)/sessions/\(flight.sessionID.uuidString)"
        let replayed = try TodoRewind.run(["replay", link], environment: ["REWIND_TOKEN": collector.read])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("(flight) [steps 1-"), "\(replayed.stdout)")
        #expect(replayed.stdout.contains(" not kept]: "), "\(replayed.stdout)")
    }
}

/// A build that came before a fix: it kept the title of a new item with a stray mark. Its
/// sessions no longer replay against the current reducer.
struct OlderTodoFeature: Reducer {
    let base = TodoFeature(api: TodoAPI())

    func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
        let effect = base.reduce(into: &state, action: action)
        if case .addItem = action, !state.items.isEmpty { state.items[state.items.count - 1].title += "!" }
        return effect
    }
}

extension UploadTests {
    /// A collected session that the current build no longer reproduces the same way: CI
    /// replays it from the collector with `--record-verdict`, and the collector's sessions
    /// page, signed in with the read token, shows where it diverged and against which build.
    @Test func aReplayVerdictShowsOnTheCollectorsSessionsPage() async throws {
        let collector = try Collector()
        defer { collector.stop() }
        let path = collector.folder.appendingPathComponent("older.rewind").path
        let store = Store(
            initialState: TodoState(), reducer: OlderTodoFeature(), recordingTo: try .sqlite(path: path),
            session: SessionDescriptor(name: "older", flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion))
        store.send(.addItem(title: "Buy milk"))
        store.recorder?.close()
        let sent = try await TodoUploads.send(log: path, to: collector.url, token: collector.upload)
        let link = "\(collector.url.absoluteString)/sessions/\(try #require(sent.first).session.uuidString)"

        let replayed = try TodoRewind.run(["replay", link, "--record-verdict", "build-7"], environment: ["REWIND_TOKEN": collector.read])
        #expect(replayed.status == 1 && replayed.stdout.contains("diverged at step 1"), "\(replayed.stdout)\(replayed.stderr)")

        // The page, as a browser signs in: a form POST from the collector's origin sets a cookie.
        var signIn = URLRequest(url: collector.url.appendingPathComponent("signin"))
        signIn.httpMethod = "POST"
        signIn.setValue(collector.url.absoluteString, forHTTPHeaderField: "Origin")
        signIn.httpBody = Data("token=\(collector.read)".utf8)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (_, answer) = try await session.data(for: signIn)
        let cookie = try #require((answer as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first)
        var page = URLRequest(url: collector.url.appendingPathComponent("/"))
        page.setValue(String(cookie), forHTTPHeaderField: "Cookie")
        let html = String(decoding: try await session.data(for: page).0, as: UTF8.self)
        #expect(html.contains(#"<td class="verdict verdict-diverged">diverged at step 1 <span class="against">build build-7</span></td>"#), "\(html)")
    }
}

/// Leaves a redirect unfollowed: the test reads the answer that sets the cookie.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where ``Collector/binary`` is at hand, or everywhere when
    /// `REWIND_REQUIRE_COLLECTOR=1`: then its absence fails the test instead of skipping it.
    static var collector: Self {
        .enabled(
            if: Collector.binary != nil || Collector.required,
            "needs rewind built with the Servers trait: swift build --traits Servers --scratch-path .build-teamstore --product rewind, in Rewind's folder"
        )
    }
}

/// `rewind serve` on a free loopback port, with an upload and a read token.
final class Collector {
    static let binary: String? = {
        let path =
            ProcessInfo.processInfo.environment["REWIND_COLLECTOR_BINARY"]
            ?? Package.root.appendingPathComponent("../../.build-teamstore/debug/rewind").standardized.path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
    static let required = ProcessInfo.processInfo.environment["REWIND_REQUIRE_COLLECTOR"] == "1"

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-collector-\(UUID().uuidString)")
    let upload: String
    let read: String
    let url: URL
    private let process = Process()

    init() throws {
        guard let binary = Self.binary else { throw Missing() }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("collected.rewind").path
        func token(_ extra: [String]) throws -> String {
            let made = Process()
            made.executableURL = URL(fileURLWithPath: binary)
            made.arguments = ["serve", "token", "create", "--store", store, "--app", "todo"] + extra
            let out = Pipe()
            made.standardOutput = out
            try made.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            made.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        upload = try token([])
        read = try token(["--read"])
        process.executableURL = URL(fileURLWithPath: binary)
        // Its access log off: standard output is read for the first line only.
        process.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0", "--access-log", "off"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line names the port: "rewind serve: listening on http://127.0.0.1:PORT, …".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "http://"), let end = text[start.upperBound...].firstIndex(of: ","),
            let url = URL(string: String(text[start.lowerBound..<end]))
        else {
            process.terminate()
            throw Missing()
        }
        self.url = url
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "rewind serve did not start (REWIND_COLLECTOR_BINARY, or the Rewind package's .build-teamstore/debug/rewind)" }
    }
}
