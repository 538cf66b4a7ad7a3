import Atomics
import Foundation
import RewindCore
import RewindJSON
import RewindLog
import RewindUpload

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recording store's live view in a `rewind live` inspector (docs/live.md), over URLSession.
///
/// The app's log stays the record and the inspector gets a view of it: a task off the main
/// actor looks at the log every ``LiveInspectorLink/interval`` (one `PRAGMA data_version`) and
/// uploads what the inspector lacks of the session, as an app uploads to a collector
/// (`Uploader`, the same frame), so a dropped connection or a restarted inspector loses
/// nothing: the next look sends from where the inspector is. Dispatch is not touched. Another
/// task asks the inspector for commands (a long poll) and carries them out on the main actor
/// through a ``LiveTraveller``, unless ``LiveInspectorLink/allowsTravel`` is off, and answers
/// each with a ``LiveOutcome``.
///
/// An inspector that is not running costs the app one line (`report`) and a look a second;
/// the app records exactly as before.
@MainActor
public final class LiveConnection<State: RecordableState, Action: RecordableAction> {
    public let link: LiveInspectorLink
    public let logPath: String
    public let session: SessionDescriptor
    /// Held weakly: the store keeps its connection (``Store/init(initialState:reducer:recordingTo:session:live:configuration:execution:)``).
    private weak var store: Store<State, Action>?
    private let makeTraveller: (Store<State, Action>) -> LiveTraveller<State, Action>
    private var traveller: LiveTraveller<State, Action>?
    private let report: @Sendable (String) -> Void
    /// Set when the connection stops: both tasks end at their next look.
    private let stopped = ManagedAtomic(false)
    private var started = false

    /// - Parameters:
    ///   - report: where the connection's lines go (one when the inspector cannot be reached,
    ///     one when it can again); standard error by default.
    public init<R: Reducer & Sendable>(
        store: Store<State, Action>, reducer: R, logPath: String, session: SessionDescriptor, link: LiveInspectorLink,
        report: @escaping @Sendable (String) -> Void = LiveConnection.standardError
    ) where R.State == State, R.Action == Action {
        self.store = store
        self.link = link
        self.logPath = logPath
        self.session = session
        self.report = report
        makeTraveller = { LiveTraveller(store: $0, reducer: reducer, logPath: logPath, session: session) }
    }

    deinit {
        stopped.store(true, ordering: .relaxed)
    }

    /// Writes `line` to standard error, after `rewind live: `.
    public nonisolated static func standardError(_ line: String) {
        FileHandle.standardError.write(Data("rewind live: \(line)\n".utf8))
    }

    /// Starts both tasks; a second call does nothing.
    public func start() {
        guard !started else { return }
        started = true
        // The command task holds this connection through its long poll (20 s): the store's end
        // stops both tasks through this, not through the connection's own end.
        store?.keep(StopsWhenReleased(stopped))
        let channel = LiveChannel(link: link, session: session.id)
        let (logPath, id, stopped, report) = (logPath, session.id, stopped, report)
        Task.detached(priority: .utility) {
            await Self.follow(logPath: logPath, session: id, channel: channel, stopped: stopped, report: report)
        }
        Task { [weak self] in
            var after = 0
            while let self, !stopped.load(ordering: .relaxed) {
                after = await self.answerCommands(after: after, channel: channel)
            }
        }
    }

    /// Stops both tasks at their next look.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Uploads the session whenever the log changes, until stopped.
    private nonisolated static func follow(
        logPath: String, session id: UUID, channel: LiveChannel, stopped: ManagedAtomic<Bool>, report: @Sendable (String) -> Void
    ) async {
        let uploader = Uploader(log: logPath, to: channel.client)
        var reader: LogReader?
        var seen: Int?
        var reachable = true
        while !stopped.load(ordering: .relaxed) {
            do {
                let log = try reader ?? LogReader(path: logPath)
                reader = log
                let version = try log.dataVersion()
                if version != seen {
                    let session = try log.session(id.uuidString)
                    _ = try await uploader.upload(session, from: log)
                    seen = version
                    if !reachable {
                        report("the inspector at \(channel.link.url.absoluteString) answers again")
                        reachable = true
                    }
                    if session.endedAt != nil { return }
                }
                try? await Task.sleep(for: channel.link.interval)
            } catch let error as LogError where error.kind == .noSuchSession {
                // The recorder has not committed the session's start yet.
                try? await Task.sleep(for: channel.link.interval)
            } catch {
                if reachable {
                    report("cannot reach the inspector at \(channel.link.url.absoluteString) (\(error)); the app records as before")
                    reachable = false
                }
                seen = nil
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Asks for the commands after number `after`, carries each out and answers it; returns the
    /// last number seen.
    private func answerCommands(after: Int, channel: LiveChannel) async -> Int {
        var after = after
        // While the store travels, the held actions are counted on the page: ask again soon.
        let travelling = store?.isTravelling ?? false
        do {
            let (epoch, polled) = try await channel.commands(after: after, waitSeconds: travelling ? 1 : 20)
            var commands = polled
            if epoch != self.epoch {
                // An inspector started again numbers its commands from 1: ask again from the first.
                let first = self.epoch == nil
                self.epoch = epoch
                if !first, after > 0 {
                    after = 0
                    commands = try await channel.commands(after: 0, waitSeconds: 0).commands
                }
            }
            for (number, json) in commands {
                after = max(after, number)
                try await channel.send(perform(number, json))
            }
            if commands.isEmpty, travelling, let outcome = status() { try await channel.send(outcome) }
        } catch {
            try? await Task.sleep(for: .seconds(1))
        }
        return after
    }

    private var lastHeld = 0
    /// The inspector's run the last poll answered from.
    private var epoch: String?

    /// A status without a command (number 0) when the count of held actions changed.
    private func status() -> LiveOutcome? {
        guard let store, store.heldActionCount != lastHeld else { return nil }
        lastHeld = store.heldActionCount
        return outcome(0, refusal: nil, store)
    }

    private func perform(_ number: Int, _ json: JSONValue) -> LiveOutcome {
        guard let store else {
            return LiveOutcome(number: number, refusal: "the app's store is gone", travelling: false, shownStep: nil, skipped: [], held: 0, step: 0)
        }
        guard link.allowsTravel else {
            return outcome(number, refusal: "this app does not allow travel (LiveInspectorLink.allowsTravel is off)", store)
        }
        // Made once, for the skipped steps it keeps; it holds the store weakly, as this does.
        let traveller = self.traveller ?? makeTraveller(store)
        self.traveller = traveller
        do {
            try traveller.perform(try LiveCommand(json: json))
            return outcome(number, refusal: nil, store)
        } catch {
            return outcome(number, refusal: "\(error)", store)
        }
    }

    private func outcome(_ number: Int, refusal: String?, _ store: Store<State, Action>) -> LiveOutcome {
        lastHeld = store.heldActionCount
        return LiveOutcome(
            number: number, refusal: refusal, travelling: store.isTravelling, shownStep: traveller?.shownStep,
            skipped: (traveller?.skipped ?? []).sorted(), held: store.heldActionCount, step: store.step)
    }
}

/// Sets its flag when released: kept by a store, it tells a connection's tasks the store is
/// gone.
private final class StopsWhenReleased {
    let flag: ManagedAtomic<Bool>

    init(_ flag: ManagedAtomic<Bool>) {
        self.flag = flag
    }

    deinit {
        flag.store(true, ordering: .relaxed)
    }
}
