#if Servers
import Hummingbird

/// A collector request's context: Hummingbird's own, and the token the request showed, put
/// there by its route group's ``TokenAuthentication``.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct CollectorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's valid token; nil without one (a page's request, signed in with a cookie,
    /// or a share link's).
    var token: CollectorToken?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// The token, for a route whose group lets in no request without one.
    func requireToken() throws(CollectorError) -> CollectorToken {
        guard let token else { throw CollectorError.unauthorized }
        return token
    }
}
#endif
