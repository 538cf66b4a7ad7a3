/// Why the team store could not do what was asked; only the command line turns it into a
/// line and an exit code.
public struct TeamStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure, to match on.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }

        /// The location is not a `postgres://` URL this code reads.
        public static let invalidLocation = Kind("invalid location")
        /// This build has no PostgreSQL client: it was built without the `Servers` trait.
        public static let notBuilt = Kind("not built")
        /// The server could not be reached, or went away during the work.
        public static let unavailable = Kind("unavailable")
        /// The server refused the credentials.
        public static let refused = Kind("refused")
        /// The store's schema is newer than this code's.
        public static let newerSchema = Kind("newer schema")
        /// No session, or more than one, answers to the name or UUID given.
        public static let noSuchSession = Kind("no such session")
        /// The store holds something no push writes: a block that does not match its checksum.
        public static let damaged = Kind("damaged")
        /// The server reported an error for a statement.
        public static let failed = Kind("failed")
    }

    public let kind: Kind
    /// The location, without its password.
    public let location: String
    public let message: String

    public init(_ kind: Kind, location: String, _ message: String) {
        self.kind = kind
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
