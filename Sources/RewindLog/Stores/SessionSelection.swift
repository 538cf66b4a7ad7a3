import Foundation

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

extension SessionSelection {
    /// The session `selector` names among `all`, by the one rule of `--session` in every store:
    /// a number, then a UUID, then a name only one session has; with no selector, the only
    /// session there is.
    ///
    /// - Parameters:
    ///   - held: how the refusal of an unknown selector says what the store holds, `(the log
    ///     holds #1 (login), #2 (…))`: a log names its sessions, a store elsewhere counts them.
    ///   - store: how it names the store in that sentence (`log`, `store`).
    /// - Throws: the refusal, one line for a person; its caller wraps it in its error.
    package static func choose(
        _ selector: String?, among all: [SessionSummary], store: String, held: ([SessionSummary]) -> String
    ) throws(Unmatched) -> SessionSummary {
        guard let selector else {
            guard all.count == 1 else {
                throw Unmatched(all.isEmpty ? "holds no session" : "holds \(all.count) sessions; choose one with --session NUMBER, NAME or UUID")
            }
            return all[0]
        }
        if let number = Int(selector), let match = all.first(where: { $0.number == number }) { return match }
        if let id = UUID(uuidString: selector), let match = all.first(where: { $0.id == id }) { return match }
        let named = all.filter { $0.name == selector }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            let numbers = named.map { "#\($0.number)" }.joined(separator: ", ")
            throw Unmatched("\(named.count) sessions are named \(selector) (\(numbers)); choose one by number or UUID")
        }
        throw Unmatched("no session \(selector) (the \(store) holds \(all.isEmpty ? "none" : held(all)))")
    }

    /// Why a selector names no session: one line, for the store's error to carry.
    package struct Unmatched: Error, Sendable {
        package let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
