/// Why the collector refused a request, or a token command failed: its HTTP status, a code
/// to match on and a line for a person. Only the server turns it into a response (a JSON
/// body, docs/collector.md) and only the command line into an exit code.
public struct CollectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status it answers with.
    public var status: Int
    /// What went wrong, as the error body's `code` names it.
    public var code: String
    public var message: String
    /// Seconds to wait before trying again (429, 503).
    public var retryAfter: Int?
    /// The last step the store holds of the session, when the client needs it to go on (409).
    public var storedThrough: Int?
    /// The command line that gets the client what it asked for another way (413 of a session
    /// too large to serve here).
    public var command: String?

    public init(status: Int, code: String, _ message: String, retryAfter: Int? = nil, storedThrough: Int? = nil, command: String? = nil) {
        self.command = command
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.storedThrough = storedThrough
    }

    public var description: String { message }

    static let unauthorized = CollectorError(status: 401, code: "unauthorized", "no valid token: send Authorization: Bearer TOKEN")
    static func forbidden(_ what: String) -> CollectorError { CollectorError(status: 403, code: "forbidden", what) }
    static func notFound(_ what: String) -> CollectorError { CollectorError(status: 404, code: "not_found", what) }
    static func badRequest(_ what: String) -> CollectorError { CollectorError(status: 400, code: "bad_request", what) }
}
