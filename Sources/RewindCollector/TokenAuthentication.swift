#if Servers
import Hummingbird

/// A route group's way in: the request's token (`Authorization: Bearer TOKEN`) checked before
/// its route, and put in its context (``CollectorRequestContext/token``).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct TokenAuthentication: RouterMiddleware {
    typealias Context = CollectorRequestContext
    let guardian: RequestGuard
    /// The scope the group's routes take (403 for the other), with the token's rate counted;
    /// nil: any valid token, its rate not counted (the pages count their sign-in's).
    var scope: CollectorToken.Scope?
    /// Whether a request without a token goes on to the route, which checks the sessions
    /// page's cookie instead; 401 otherwise. A token shown is checked all the same.
    var optional = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let authorization = request.headers[.authorization]
        // Through the guardian without a token too: a token file it cannot read is the
        // server's failure (500), not the client's 401.
        if authorization != nil || !optional {
            if let scope {
                context.token = try await guardian.admit(authorization, scope: scope)
            } else {
                context.token = try await guardian.authenticate(authorization)
            }
        }
        return try await next(request, context)
    }
}
#endif
