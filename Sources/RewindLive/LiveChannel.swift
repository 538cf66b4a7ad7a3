import Foundation
import RewindJSON
import RewindUpload

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's side of the live inspector's HTTP API (docs/live.md): uploads through a
/// `CollectorClient` (the collector's frame and routes), commands by a long poll, outcomes
/// posted back. Every request carries the pairing code, when there is one.
struct LiveChannel: Sendable {
    let link: LiveInspectorLink
    let session: UUID
    /// Uploads, tried once each: the follower tries again at its next look.
    let client: CollectorClient

    init(link: LiveInspectorLink, session: UUID) {
        self.link = link
        self.session = session
        client = CollectorClient(root: link.url, token: link.pairingCode ?? "", retry: RetryPolicy(attempts: 1), session: Self.uploads)
    }

    /// The connections of the long polls, and apart from them those of uploads: each store
    /// holds a long poll open, and on one session with its 6 connections to a host, the
    /// uploads of 7 stores (`rewind demo --live`) waited behind the polls for up to 20 s.
    static let polls = URLSession(configuration: configuration)
    static let uploads = URLSession(configuration: configuration)

    private static var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }

    /// The commands numbered after `after`, waiting up to `waitSeconds` for one, and the
    /// inspector's epoch (its run: numbers start again at 1 when it changes).
    func commands(after: Int, waitSeconds: Int) async throws -> (epoch: String, commands: [(Int, JSONValue)]) {
        var components = URLComponents(url: WireRoute.liveCommands.url(on: link.url, session), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "after", value: String(after)), URLQueryItem(name: "wait", value: String(waitSeconds))]
        guard let address = components?.url else { return ("", []) }
        var request = URLRequest(url: address)
        request.timeoutInterval = Double(waitSeconds + 10)
        guard let answer = WireLiveCommands(json: try JSONValue(parsing: try await send(request))) else {
            throw LiveWireError("the inspector's commands are not a list")
        }
        return (answer.epoch, answer.commands.map { ($0.number, $0.command) })
    }

    /// Posts what became of a command.
    func send(_ outcome: LiveOutcome) async throws {
        var request = URLRequest(url: WireRoute.liveOutcomes.url(on: link.url, session))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(outcome.json.canonicalBytes)
        request.timeoutInterval = 10
        // An answer lost is a command the page or the stepper waits on for nothing (the loop
        // has taken its number): a post that fails is tried twice more. Posting it again only
        // sets the session's last outcome to the same.
        for attempt in 1... {
            do {
                _ = try await send(request)
                return
            } catch  where attempt < 3 {
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    /// The body of a 2xx answer to `request`.
    private func send(_ request: URLRequest) async throws -> Data {
        var request = request
        if let code = link.pairingCode { request.setValue("Bearer \(code)", forHTTPHeaderField: "Authorization") }
        #if canImport(FoundationNetworking)
        // Never cancelled on Linux, as CollectorClient's requests (a cancel racing the task's
        // end traps swift-corelibs-foundation); each ends by its timeout.
        let (data, response) = try await Task { [request] in try await Self.polls.data(for: request) }.value
        #else
        let (data, response) = try await Self.polls.data(for: request)
        #endif
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw LiveWireError("the inspector answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        return data
    }
}
