import Foundation
import RewindCore
import RewindJSON

/// Watches driven sessions and keeps each as timeline entries: the demo's printer until the
/// log exists, and a quick way to see what a session does.
@MainActor
public final class TimelineCollector: SessionHost {
    /// One watched session.
    public struct Session: Sendable {
        public var name: String?
        public var flow: String
        public var entries: [TimelineEntry] = []
    }

    public private(set) var sessions: [Session] = []

    public init() {}

    public func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        sessions.append(Session(name: session.name, flow: session.flow))
        let index = sessions.count - 1
        return [Collector<State, Action>(now: session.now) { [weak self] entry in
            self?.sessions[index].entries.append(entry)
        }]
    }

    /// Encodes each step and diffs it against the one before.
    private final class Collector<State: RecordableState, Action: RecordableAction>: StoreMiddleware {
        private let now: @Sendable () -> Date
        private let emit: (TimelineEntry) -> Void
        private let encoder = JSONValueEncoder()
        private var start = Date()
        private var previous = JSONValue.null

        init(now: @escaping @Sendable () -> Date, emit: @escaping (TimelineEntry) -> Void) {
            self.now = now
            self.emit = emit
        }

        func storeDidStart(initialState: State) {
            start = now()
            previous = (try? encoder.encode(initialState)) ?? .null
        }

        func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
            let current = (try? encoder.encode(state)) ?? .null
            emit(TimelineEntry(
                step: context.step,
                offset: now().timeIntervalSince(start),
                origin: action.origin,
                name: action.name,
                cause: context.cause,
                action: (try? encoder.encode(action)) ?? .null,
                outputs: outputs.map { ValueSummary.payload(of: (try? encoder.encode($0)) ?? .null, name: "output") },
                changes: JSONDiff.changes(from: previous, to: current)
            ))
            previous = current
        }
    }
}
