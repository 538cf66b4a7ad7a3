#if Servers
import Foundation
import NIOCore
import RewindJSON

/// What the live inspector holds between requests (docs/live.md): the commands pages sent to
/// each app, waiting for the app to ask, and the pages listening for events. All bounded: a
/// page or an app that misbehaves costs at most these counts.
actor LiveHub {
    /// Commands kept for an app that has not asked yet; the oldest go first.
    static let commandsKept = 64
    /// Long polls of one session waiting at once.
    static let waitersPerSession = 8
    /// Sessions with commands or waiters.
    static let sessions = 1_024
    /// Pages listening at once.
    static let listeners = 32

    private struct Pending {
        var next = 1
        var commands: [(number: Int, command: JSONValue)] = []
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    /// This inspector's run: an app that sees it change (an inspector started again, whose
    /// numbers start at 1 again) asks for its commands from the first.
    let epoch = UUID().uuidString
    private var pending: [UUID: Pending] = [:]
    /// Each session's last outcome, for a page that loads after it.
    private var outcomes: [UUID: JSONValue] = [:]
    private var listening: [UUID: AsyncStream<ByteBuffer>.Continuation] = [:]
    /// Whether the inspector stops: long polls answer at once and no page may listen, so that
    /// a signal ends the process without waiting out an app's 20 s poll.
    private(set) var isFinished = false

    /// Queues `command` for session `id`'s app and wakes its long polls; the command's number.
    func enqueue(_ command: JSONValue, for id: UUID) throws(CollectorError) -> Int {
        guard pending[id] != nil || pending.count < Self.sessions else {
            throw CollectorError(status: 503, code: "busy", "the inspector holds commands for \(Self.sessions) sessions", retryAfter: 1)
        }
        var queue = pending[id] ?? Pending()
        let number = queue.next
        queue.next += 1
        queue.commands.append((number, command))
        if queue.commands.count > Self.commandsKept { queue.commands.removeFirst(queue.commands.count - Self.commandsKept) }
        let waiters = queue.waiters
        queue.waiters = [:]
        pending[id] = queue
        for waiter in waiters.values { waiter.resume() }
        return number
    }

    /// The commands for `id` numbered after `after`; when there are none, waits up to `seconds`
    /// for one.
    func commands(for id: UUID, after: Int, waiting seconds: Int) async -> [(number: Int, command: JSONValue)] {
        let ready = pending[id]?.commands.filter { $0.number > after } ?? []
        guard ready.isEmpty, seconds > 0, !isFinished, (pending[id]?.waiters.count ?? 0) < Self.waitersPerSession,
            pending[id] != nil || pending.count < Self.sessions
        else { return ready }
        let key = UUID()
        await withCheckedContinuation { continuation in
            pending[id, default: Pending()].waiters[key] = continuation
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                self.wake(id, key)
            }
        }
        return pending[id]?.commands.filter { $0.number > after } ?? []
    }

    private func wake(_ id: UUID, _ key: UUID) {
        pending[id]?.waiters.removeValue(forKey: key)?.resume()
    }

    /// Keeps `outcome` as session `id`'s last and sends it to every page.
    func note(outcome: JSONValue, for id: UUID) {
        if outcomes[id] != nil || outcomes.count < Self.sessions { outcomes[id] = outcome }
        broadcast("outcome", outcome)
    }

    /// Session `id`'s last outcome.
    func outcome(of id: UUID) -> JSONValue? {
        outcomes[id]
    }

    /// A stream of events for a page, as Server-Sent Events; nil when too many pages listen.
    func listen() -> (UUID, AsyncStream<ByteBuffer>)? {
        guard listening.count < Self.listeners, !isFinished else { return nil }
        let key = UUID()
        // A page that reads slowly keeps the newest events: the page asks for the steps after
        // the last it holds, so a lost "steps" event is made good by the next.
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { _ in Task { await self.stopListening(key) } }
        listening[key] = continuation
        // A first comment sends the answer's head at once (Hummingbird writes it with the first
        // bytes of the body): the page knows it listens before any session grows.
        continuation.yield(ByteBuffer(string: ": listening\n\n"))
        return (key, stream)
    }

    func stopListening(_ key: UUID) {
        listening.removeValue(forKey: key)?.finish()
    }

    /// Sends `data` to every page as an event called `name`.
    func broadcast(_ name: String, _ data: JSONValue) {
        let event = ByteBuffer(string: "event: \(name)\ndata: \(data.canonicalString)\n\n")
        for continuation in listening.values { continuation.yield(event) }
    }

    /// Sends a comment to every page, so that a connection nobody writes to is not taken for dead.
    func keepAlive() {
        for continuation in listening.values { continuation.yield(ByteBuffer(string: ": alive\n\n")) }
    }

    /// Answers every long poll with what it has and ends every page's stream, now and for
    /// whoever asks later: the inspector stops.
    func finish() {
        isFinished = true
        for queue in pending.values {
            for waiter in queue.waiters.values { waiter.resume() }
        }
        for id in pending.keys { pending[id]?.waiters = [:] }
        for continuation in listening.values { continuation.finish() }
        listening = [:]
    }
}
#endif
