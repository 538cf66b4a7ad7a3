/// What an import added (or, verifying only, would add) for one session of an export.
public struct ImportedSession: Sendable, Equatable {
    /// The line of the session's header in the export.
    public var line: Int
    /// The session's number in the log written; nil when only verifying.
    public var number: Int?
    public var name: String?
    public var flow: String
    /// How many events it holds.
    public var steps: Int
    /// How many gap markers it holds.
    public var gaps: Int
    /// The number of the session with the same identity that the log held already, in which
    /// case this one was not written again; nil otherwise.
    public var alreadyHeldAs: Int? = nil
}
