/// The sessions a verb reads, and how much of them.
package struct SessionSelection: Sendable {
    /// Which sessions.
    package enum Sessions: Sendable {
        /// Every session.
        case every
        /// The one that `--session` names (a number, a name or a UUID), or, when nil, the only one.
        case one(String?)
        /// Those that each `--session` names, as ``one(_:)`` reads it.
        case these([String?])
        /// Those in a part of a sharded replay.
        case shard(ReplayShard)
    }

    /// Which sessions.
    package var sessions: Sessions
    /// The steps read, counted back from the last when negative; nil for every step. A verb
    /// that reads only some (`show`) says which, and a store elsewhere copies only the blocks
    /// that rebuild them (and the session's first and last, which bound it).
    package var steps: [Int]?

    package init(_ sessions: Sessions, steps: [Int]? = nil) {
        self.sessions = sessions
        self.steps = steps
    }
}
