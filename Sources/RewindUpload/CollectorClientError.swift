/// Why a collector did not take, or give, what was asked; only the command line turns it
/// into a line and an exit code.
public struct CollectorClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }

        /// The URL is not one of a collector (`http(s)://host[:port][/sessions/UUID]`).
        public static let invalidLocation = Kind("invalid location")
        /// No token, a wrong one, or one of the other scope (401, 403).
        public static let unauthorized = Kind("unauthorized")
        /// The collector refused what was sent (a 4xx other than 401, 403, 408, 429).
        public static let refused = Kind("refused")
        /// The collector could not be reached, or kept answering "later", past the retries.
        public static let unavailable = Kind("unavailable")
        /// The collector has no such session (404).
        public static let noSuchSession = Kind("no such session")
    }

    public let kind: Kind
    /// The collector, without its token.
    public let location: String
    public let message: String
    /// The HTTP status, when there was an answer.
    public let status: Int?
    /// The error body's code, when there was one.
    public let code: String?

    public init(_ kind: Kind, location: String, _ message: String, status: Int? = nil, code: String? = nil) {
        self.kind = kind
        self.location = location
        self.message = message
        self.status = status
        self.code = code
    }

    public var description: String { "\(location): \(message)" }
}
