#if Servers
import Foundation
import Hummingbird
import RewindLog
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// `POST /v1/sessions/{id}/blocks`: an upload (docs/collector.md).
    func upload(_ request: Request, _ context: CollectorRequestContext, _ guardian: RequestGuard) async throws -> Response {
        let token = try context.requireToken()
        let id = try context.sessionID()
        // Each upload in flight holds its body (up to `--max-body`): at most `uploadsInFlight`
        // at once, so that the memory they hold is bounded.
        guard await guardian.beginUpload() else {
            throw CollectorError(
                status: 503, code: "busy", "the collector takes \(limits.uploadsInFlight) uploads at once; try again", retryAfter: 1)
        }
        do {
            let response = try await receiving(request, id: id, token: token, guardian)
            await guardian.endUpload()
            return response
        } catch {
            await guardian.endUpload()
            throw error
        }
    }

    private func receiving(_ request: Request, id: UUID, token: CollectorToken, _ guardian: RequestGuard) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.upload.bodyBytes {
            throw CollectorError(status: 413, code: "too_large", "the body is larger than \(limits.upload.bodyBytes) bytes")
        }
        if let encoding = request.headers[.contentEncoding], encoding != "identity" {
            throw CollectorError(status: 415, code: "unsupported_encoding", "bodies are sent as they are (blocks are compressed already), not \(encoding)")
        }
        // Read within `bodySeconds` of its start: a client that sends a few bytes and then
        // nothing holds a connection (the idle timeout does not count while a request is under
        // way) and a place among the uploads in flight.
        let body = try await Self.body(of: request, limit: limits.upload.bodyBytes, seconds: limits.bodySeconds)
        var upload: StoredSessionCopy
        do {
            upload = try StoredSessionCopy(uploadBody: body, limits: limits.upload)
            if verifiesBlocks { try await upload.checkBlocks() }
        } catch {
            throw CollectorError(refusing: error)
        }
        guard upload.id == id else {
            throw CollectorError(
                status: 422, code: "invalid_value", "the body's session (\(upload.id.uuidString)) is not the one of the path (\(id.uuidString))")
        }
        // A token's app is the app of every session it writes, whatever the body says: the
        // store refuses one it holds as another app's (403 `other_app`).
        upload.metadata.app = token.app
        upload.summary.metadata?.app = token.app
        let store = self.store
        try await guardian.mayBegin(id, token: token) { try await store.progress(of: id) != nil }
        let received: ReceivedBlocks
        do {
            received = try await store.receive(upload)
        } catch let error as UploadError {
            throw CollectorError(refusing: error)
        } catch {
            throw CollectorError(status: 503, code: "store_unavailable", "the store cannot take it now: \(error)", retryAfter: 5)
        }
        await guardian.note(id, token: token, ended: received.ended)
        return try Self.json(WireProgress(session: id, received: received))
    }

    /// `GET /v1/sessions/{id}`: how far an upload of the session got.
    func progress(_ context: CollectorRequestContext) async throws -> Response {
        let id = try context.sessionID()
        let held: ReceivedBlocks?
        do {
            held = try await store.progress(of: id)
        } catch {
            throw CollectorError(status: 503, code: "store_unavailable", "the store cannot answer now: \(error)", retryAfter: 5)
        }
        guard let held else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return try Self.json(WireProgress(session: id, received: held))
    }
}
#endif
