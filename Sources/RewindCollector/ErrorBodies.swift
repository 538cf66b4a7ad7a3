#if Servers
import Foundation
import Hummingbird
import RewindLog
import RewindUpload

/// Every refusal as the protocol's body (``WireRefusal``, docs/collector.md), with
/// `Retry-After` where there is one: the router's own 404s and 405s too. A browser's page load
/// (a GET asking for HTML, without a token) gets the same as a page that says why.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ErrorBodies<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var refusal: CollectorError
        do {
            return try await next(request, context)
        } catch let error as CollectorError {
            refusal = error
        } catch let error as UploadError {
            refusal = CollectorError(refusing: error)
        } catch LogError.noSuchSession, StoreError.noSuchSession {
            refusal = CollectorError.notFound("no such session")
        } catch let error as StoreError {
            // A team store out of reach, or refusing: the store's state, not the client's fault.
            let unavailable = error.kind == .unavailable
            refusal = CollectorError(
                status: unavailable ? 503 : 500, code: unavailable ? "store_unavailable" : "store_failed", error.description,
                retryAfter: unavailable ? 5 : nil)
        } catch let error as LogError {
            // The store's damage, or a store that cannot be read: the server's fault, not the client's.
            refusal = CollectorError(status: 500, code: "store_damaged", error.description)
        } catch let error as any HTTPResponseError {
            refusal = CollectorError(
                status: error.status.code, code: error.status.code == 404 ? "not_found" : "http_\(error.status.code)", error.status.reasonPhrase)
        } catch {
            refusal = CollectorError(status: 500, code: "internal", "\(error)")
        }
        if refusal.status >= 500 {
            // The server's own trouble: its words (a path, a database's URL) go to its log, and
            // the client learns only that it failed and whether to come back.
            ServerLog.failure(request, refusal)
            refusal.message =
                switch refusal.code {
                case "store_unavailable": "the store cannot take or answer requests now; try again later"
                // Said as damage, so that a reader never takes it for a passing failure.
                case "store_damaged": "the store's copy of this is damaged; the server's log says where"
                default: "the server failed to answer this; its log says why"
                }
        }
        if Self.isBrowsing(request) { return Self.page(refusal) }
        let data = refusal.wireRefusal.body()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let retryAfter = refusal.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if refusal.status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: .init(code: refusal.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Whether `request` is a browser's page load (a GET asking for HTML, without a token): it
    /// gets a page that says why, not the API's JSON.
    private static func isBrowsing(_ request: Request) -> Bool {
        request.method == .get && request.headers[.authorization] == nil && request.headers[.accept]?.contains("text/html") == true
    }

    /// The refusal as a page of one paragraph: its message, and its command when it has one.
    private static func page(_ refusal: CollectorError) -> Response {
        let title =
            switch refusal.status {
            case 400: "Not a request this page takes"
            case 401: "Sign in first"
            case 403: "Not allowed"
            case 404: "Not found"
            case 413: "Too large to show here"
            case 500...: "The collector could not answer"
            default: "Refused"
            }
        let text = refusal.message + (refusal.command.map { ". On your machine: \($0)" } ?? "")
        var response = Collector.page(status: .init(code: refusal.status), title: title, text: text)
        if let retryAfter = refusal.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if refusal.status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}
#endif
