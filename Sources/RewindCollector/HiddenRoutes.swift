#if Servers
import Hummingbird

/// A path no route takes asks for a valid token as the routes do (401 without one): a client
/// without a token learns nothing of which paths the collector has.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct HiddenRoutes<Context: RequestContext>: RouterMiddleware {
    let guardian: RequestGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Only the router throws Hummingbird's 404: the routes throw `CollectorError`.
            _ = try await guardian.authenticate(request.headers[.authorization])
            throw error
        }
    }
}
#endif
