import RewindJSON

/// A sink that keeps everything in memory: for tests and previews.
public final class InMemorySink: RecordingSink {
    /// One session as it was written.
    public struct Session: Sendable {
        public var header: SessionHeader
        public var events: [RecordedEvent] = []
        public var gaps: [RecordingGap] = []
        public var redactedPaths: Set<String>
        public var isEnded = false

        /// The state after `step`, rebuilt from the nearest keyframe and the patches after it;
        /// nil when the step was not recorded.
        public func state(at step: Int) throws -> JSONValue? {
            if step == 0 { return header.initialState }
            guard let last = events.lastIndex(where: { $0.step == step }) else { return nil }
            var first = last
            while first > 0, case .patch = events[first].state { first -= 1 }
            var state = header.initialState
            for event in events[first...last] {
                switch event.state {
                case let .keyframe(value): state = value
                case let .patch(patch): try state.apply(patch)
                }
            }
            return state
        }
    }

    private let storage = LockedValue<[Session]>([])

    public init() {}

    /// Every session written so far, numbered from 1 in this order.
    public var sessions: [Session] { storage.withLock { $0 } }

    public func beginSession(_ header: SessionHeader) throws -> Int {
        storage.withLock { sessions in
            sessions.append(Session(header: header, redactedPaths: header.redactedPaths))
            return sessions.count
        }
    }

    public func append(
        _ events: [RecordedEvent], gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int
    ) throws {
        storage.withLock { sessions in
            sessions[session - 1].events += events
            sessions[session - 1].gaps += gaps
            sessions[session - 1].redactedPaths.formUnion(redactedPaths)
        }
    }

    public func endSession(_ session: Int) throws {
        storage.withLock { $0[session - 1].isEnded = true }
    }
}

extension RecordingSink where Self == InMemorySink {
    /// A new sink that keeps everything in memory.
    public static func inMemory() -> InMemorySink { InMemorySink() }
}
