/// Why following a session stopped (see ``LogInspector/follow(_:from:with:_:)``).
public enum FollowEnd: Sendable, Equatable {
    /// The session ended: its recorder closed it, and every step was handed over.
    case ended
    /// The reader asked for no more (`find --first` found its match).
    case stopped
    /// The follower was cancelled while waiting (Ctrl-C).
    case interrupted
}
