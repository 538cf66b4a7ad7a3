#if Servers
import Foundation
import RewindLog
import RewindUpload

extension TeamStore: SessionStore {
    /// The store's URL, without its password.
    public var name: String { location.description }

    /// The sessions of `selection` copied into a log of their own on this machine, each
    /// under its number in ``sessions(matching:)``, blocks as stored (and checked against the
    /// store's checksums); readers open it under the store's name.
    ///
    /// The copy lives in a folder only its user can read, under the temporary folder, until
    /// ``ReadableSessions/discard()``. A reader meets damage in it as it would in the store.
    package func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        let chosen: [SessionSummary]
        let count: Int
        if case let .one(selector?) = selection.sessions, let id = UUID(uuidString: selector) {
            // One session by its UUID (a collector's request): found alone, not in a list of all.
            guard let held = try await held(id) else {
                throw StoreError(.noSuchSession, location: name, "no session \(selector) (see rewind sessions)")
            }
            (chosen, count) = ([held.summary], held.of)
        } else {
            let all = try await sessions()
            (chosen, count) = (try choose(selection.sessions, among: all), all.count)
        }
        let folder: String
        do {
            folder = try ReadableSessions.makeCopyFolder("store")
        } catch {
            throw StoreError(.failed, location: name, "cannot make a folder for the sessions read: \(error.localizedDescription)")
        }
        let file = folder + "/sessions.rewind"
        do {
            let sink = try SQLiteSink(scratchCopyAt: file)
            do {
                for session in chosen {
                    _ = try sink.insert(try await copy(of: session, steps: selection.steps), as: session.number)
                }
                try sink.close()
            } catch {
                try? sink.close()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return ReadableSessions(copy: file, in: folder, as: name, of: count)
    }

    public func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        try await held(id).map { ($0.summary, $0.inflatedBytes) }
    }

    /// The sessions of `all` that `sessions` names; what `--session` names must be there, as
    /// in a log: a number, a UUID, or a name only one session has.
    func choose(_ sessions: SessionSelection.Sessions, among all: [SessionSummary]) throws(StoreError) -> [SessionSummary] {
        switch sessions {
        case .every:
            return all
        case let .these(selectors):
            var chosen: [Int: SessionSummary] = [:]
            for selector in selectors {
                for session in try choose(.one(selector), among: all) { chosen[session.number] = session }
            }
            return chosen.values.sorted { $0.number < $1.number }
        case let .shard(shard):
            return all.filter { shard.contains($0, ofLogAt: name) }
        case let .one(selector):
            do {
                let held = { (all: [SessionSummary]) in "\(all.count == 1 ? "1 session" : "\(all.count) sessions"); see rewind sessions" }
                return [try SessionSelection.choose(selector, among: all, store: "store", held: held)]
            } catch {
                throw StoreError(.noSuchSession, location: name, error.message)
            }
        }
    }
}
#endif
