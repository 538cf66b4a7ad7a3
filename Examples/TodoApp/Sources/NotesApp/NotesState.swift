import RewindCore

/// The notes screen.
public struct NotesState: Codable, Equatable, Sendable {
    /// Where signing in to the notes service stands.
    public enum Account: Codable, Equatable, Sendable {
        case signedOut
        case signedIn(workspace: String)
        case refused(reason: String)
    }

    public var notes: [Note] = []
    /// The service's token. A secret: the log keeps only its length, and the reducer reads
    /// its characters (its prefix names the workspace), which replay reports as unverifiable.
    public var token = Secret("")
    public var account = Account.signedOut

    public init() {}
}
