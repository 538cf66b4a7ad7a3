/// Why a store elsewhere (a team store, a collector) could not do what was asked: reaching
/// it, signing in, finding a session. What a store refuses of a copy itself is an
/// `UploadError`; damage in a log file, a `LogError`. Only the command line and the
/// collector turn it into a line, an exit code or an HTTP status.
///
/// Matched by kind, as GRDB's `DatabaseError` is by code:
///
/// ```swift
/// do { … } catch StoreError.unavailable { /* try again later */ }
/// ```
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure, to match on.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }

        /// The location is not one this code reads (a `postgres://` URL, a collector's
        /// `https://HOST[:PORT][/sessions/UUID]`).
        public static let invalidLocation = Kind("invalid location")
        /// This build has no client for the location: it was built without the `Servers` trait.
        public static let notBuilt = Kind("not built")
        /// The store could not be reached, went away during the work, or kept answering
        /// "later" past the retries: try again.
        public static let unavailable = Kind("unavailable")
        /// The store refused the credentials: a password, no token, a wrong one, or one of
        /// the other scope (a collector's 401 and 403).
        public static let unauthorized = Kind("unauthorized")
        /// The store refused what was sent, for a reason other than the credentials (a
        /// collector's 4xx other than 401, 403, 404, 408 and 429).
        public static let refused = Kind("refused")
        /// The store's schema is newer than this code's.
        public static let newerSchema = Kind("newer schema")
        /// No session, or more than one, answers to the name or UUID given.
        public static let noSuchSession = Kind("no such session")
        /// The store holds something no write of Rewind's makes: a block that does not match
        /// its checksum, a key of the wrong length.
        public static let damaged = Kind("damaged")
        /// The store reported an error of its own for the work.
        public static let failed = Kind("failed")

        /// Whether `error` is a ``StoreError`` of this kind: `catch StoreError.unavailable { … }`.
        public static func ~= (kind: Kind, error: any Error) -> Bool {
            (error as? StoreError)?.kind == kind
        }
    }

    public let kind: Kind
    /// The store's location, without its password or token.
    public let location: String
    public let message: String
    /// A collector's HTTP status, when there was an answer.
    public let status: Int?
    /// A collector's error code (`"not_found"`), when its answer had one.
    public let code: String?

    public init(_ kind: Kind, location: String, _ message: String, status: Int? = nil, code: String? = nil) {
        self.kind = kind
        self.location = location
        self.message = message
        self.status = status
        self.code = code
    }

    public var description: String { "\(location): \(message)" }

    // The kinds, for `catch StoreError.unavailable`.
    public static let invalidLocation = Kind.invalidLocation
    public static let notBuilt = Kind.notBuilt
    public static let unavailable = Kind.unavailable
    public static let unauthorized = Kind.unauthorized
    public static let refused = Kind.refused
    public static let newerSchema = Kind.newerSchema
    public static let noSuchSession = Kind.noSuchSession
    public static let damaged = Kind.damaged
    public static let failed = Kind.failed
}
