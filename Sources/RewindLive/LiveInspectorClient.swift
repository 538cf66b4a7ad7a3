import Foundation
import RewindJSON
import RewindUpload

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a live inspector's page does, for a tool: sends a ``LiveCommand`` to a connected app
/// through `rewind live` and reads what the app answered (docs/live.md). `rewind step --live`
/// is one.
public struct LiveInspectorClient: Sendable {
    /// The inspector, as `rewind live` printed it.
    public let url: URL
    /// The code `rewind live` printed when it listens beyond loopback.
    public let pairingCode: String?

    public init(url: URL, pairingCode: String? = nil) {
        self.url = url
        self.pairingCode = pairingCode
    }

    /// Queues `command` for the app of `session`; the number the inspector gave it.
    public func send(_ command: LiveCommand, to session: UUID) async throws(LiveWireError) -> Int {
        var request = URLRequest(url: WireRoute.liveCommand.url(on: url, session))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(command.json.canonicalBytes)
        guard let queued = WireLiveQueued(json: try await answer(to: request)) else {
            throw LiveWireError("the inspector's answer to a command has no number")
        }
        return queued.number
    }

    /// The last thing the app of `session` answered, nil before its first answer.
    public func outcome(of session: UUID) async throws(LiveWireError) -> LiveOutcome? {
        guard let sessions = WireLiveSession.listing(try await answer(to: URLRequest(url: WireRoute.liveSessions.url(on: url)))) else {
            throw LiveWireError("the inspector's sessions are not a list")
        }
        for held in sessions where held.id == session {
            guard let outcome = held.outcome else { return nil }
            return try LiveOutcome(json: outcome)
        }
        throw LiveWireError("the inspector holds no session \(session.uuidString)")
    }

    /// Sends `command` to the app of `session` and waits, up to `timeout`, for its answer to it:
    /// carried out or refused (``LiveOutcome/refusal``). Looks every 50 ms.
    public func perform(_ command: LiveCommand, on session: UUID, timeout: Duration = .seconds(5)) async throws(LiveWireError) -> LiveOutcome {
        let number = try await send(command, to: session)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let outcome = try await outcome(of: session), outcome.number >= number { return outcome }
            try? await Task.sleep(for: .milliseconds(50))
        }
        throw LiveWireError("the app did not answer command \(number) within \(timeout): is it still connected?")
    }

    /// The JSON body of a 2xx answer to `request`, with the pairing code; otherwise the
    /// inspector's one line.
    private func answer(to request: URLRequest) async throws(LiveWireError) -> JSONValue {
        var request = request
        request.timeoutInterval = 10
        if let pairingCode { request.setValue("Bearer \(pairingCode)", forHTTPHeaderField: "Authorization") }
        let data: Data, response: URLResponse
        do {
            #if canImport(FoundationNetworking)
            // Never cancelled on Linux (swift-corelibs-foundation traps when a cancel races the
            // task's end, LiveChannel); each request ends by its timeout.
            (data, response) = try await Task { [request] in try await URLSession.shared.data(for: request) }.value
            #else
            (data, response) = try await URLSession.shared.data(for: request)
            #endif
        } catch {
            throw LiveWireError("cannot reach the inspector at \(url.absoluteString): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = try? JSONValue(parsing: data)
        guard (200..<300).contains(status), let body else {
            if let refusal = WireRefusal(body: data) {
                throw LiveWireError("the inspector refused: \(String(refusal.message.unicodeScalars.prefix(300).map(Character.init))) (HTTP \(status))")
            }
            throw LiveWireError("the inspector answered HTTP \(status)")
        }
        return body
    }
}
