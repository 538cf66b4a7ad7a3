#if Servers
import Foundation
import Hummingbird
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension RequestContext {
    /// The session of the route's `:id`: a UUID, never a path or SQL; 400 `invalid_id`
    /// otherwise (Hummingbird's own refusal has no code a client matches on).
    func sessionID() throws(CollectorError) -> UUID {
        do {
            return try parameters.require(WireRoute.id, as: UUID.self)
        } catch {
            let shown = String((parameters.get(WireRoute.id) ?? "").prefix(64))
            throw CollectorError(status: 400, code: "invalid_id", "a session id is a UUID (got \(shown.debugDescription))")
        }
    }
}
#endif
