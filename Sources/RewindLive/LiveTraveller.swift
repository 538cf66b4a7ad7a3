import Foundation
import RewindCore
import RewindJSON
import RewindLog
import RewindReplay

/// Carries out ``LiveCommand``s on a running app's store: sends it to a recorded step, back to
/// the present, or to the present without some steps, or dispatches an action written as JSON
/// (DESIGN.md section 17).
///
/// Every state it shows comes from the app's own log, read at the moment of the command (the
/// recorder is flushed first), and is decoded by the app's own `Decodable`; a skip replays the
/// log's actions through the app's reducer, starting no effect, as `rewind replay --skip`
/// does. The store then travels (``Store/travel(to:)``): observers and SwiftUI show the state,
/// and what the UI sends is held back until the traveller resumes it. The log goes on recording
/// the present, so nothing a command does is ever written to it.
///
/// ```swift
/// #if DEBUG
/// let traveller = LiveTraveller(store: store, reducer: TodoFeature(), logPath: logPath, session: session)
/// try traveller.perform(.travel(step: 10))   // a debug menu's "back to step 10"
/// try traveller.perform(.resume)
/// #endif
/// ```
@MainActor
public final class LiveTraveller<State: RecordableState, Action: RecordableAction> {
    /// The store it sends through time; held weakly, so that a store may keep its traveller
    /// (its live connection does), and nil once the store is gone.
    public private(set) weak var store: Store<State, Action>?
    /// The log the store records into.
    public let logPath: String
    /// The session the store records, by its id.
    public let sessionID: UUID
    /// The steps skipped now (``LiveCommand/skip(step:)``), empty when it shows a recorded
    /// step or the present.
    public private(set) var skipped: Set<Int> = []
    /// The recorded step the store shows (``LiveCommand/travel(step:)``); nil when it shows the
    /// present or the present without skipped steps.
    public private(set) var shownStep: Int?
    /// The origin an action sent by ``LiveCommand/dispatch(action:)`` is recorded with.
    public static var origin: String { "inspector" }
    private let registry: ReplayRegistry
    private let decoder = JSONValueDecoder()

    /// - Parameters:
    ///   - store: a store that records `session` into the log at `logPath`.
    ///   - reducer: the store's reducer, which a skip replays the session through.
    ///   - logPath: the log `store` records into.
    ///   - session: the session `store` records, as given to it.
    public init<R: Reducer & Sendable>(store: Store<State, Action>, reducer: R, logPath: String, session: SessionDescriptor)
    where R.State == State, R.Action == Action {
        self.store = store
        self.logPath = logPath
        self.sessionID = session.id
        self.registry = ReplayRegistry([ReplayFlow(session.flow, schemaVersion: session.schemaVersion, reducer: { reducer })])
    }

    /// Carries out `command`; on an error the store is left as it was.
    public func perform(_ command: LiveCommand) throws(LiveTravelError) {
        guard let store else { throw LiveTravelError(.noStore, step: 0, "the store is gone") }
        switch command {
        case .travel(let step):
            try checkReached(step, from: 0, in: store)
            let state = try recordedState(at: step)
            skipped = []
            shownStep = step
            store.travel(to: state)
        case .resume:
            skipped = []
            shownStep = nil
            store.resume()
        case .skip(let step):
            try checkReached(step, from: 1, in: store)
            let state = try presentWithout(skipped.union([step]), asked: step)
            skipped.insert(step)
            shownStep = nil
            store.travel(to: state)
        case .dispatch(let value):
            let action: Action
            do {
                action = try decoder.decode(Action.self, from: value)
            } catch {
                throw LiveTravelError(.undecodable, step: store.step + 1, Self.refusal(error, type: Action.self, in: value))
            }
            skipped = []
            shownStep = nil
            store.resume()
            store.send(action, recordedAs: Self.origin)
        case .unskip(let step):
            guard skipped.contains(step) else { throw LiveTravelError(.noSuchStep, step: step, "step \(step) is not skipped") }
            let rest = skipped.subtracting([step])
            if rest.isEmpty {
                skipped = []
                store.resume()
            } else {
                let state = try presentWithout(rest, asked: step)
                skipped = rest
                store.travel(to: state)
            }
        }
    }

    private func checkReached(_ step: Int, from first: Int, in store: Store<State, Action>) throws(LiveTravelError) {
        guard step >= first, step <= store.step else {
            throw LiveTravelError(.noSuchStep, step: step, "step \(step) is not in the session, which is at step \(store.step)")
        }
    }

    /// The log's state at `step`, as the app's type.
    private func recordedState(at step: Int) throws(LiveTravelError) -> State {
        store?.recorder?.flush()
        let value: JSONValue
        do {
            let reader = try LogReader(path: logPath)
            value = try reader.state(of: try reader.session(sessionID.uuidString), at: step)
        } catch {
            throw LiveTravelError(.unreadable, step: step, "the log cannot give step \(step): \(error.message)")
        }
        return try decoded(value, step: step)
    }

    /// The present recomputed through the reducer without `steps`.
    private func presentWithout(_ steps: Set<Int>, asked step: Int) throws(LiveTravelError) -> State {
        store?.recorder?.flush()
        let replay: WhatIfReplay
        do {
            let actions = try RecordedActions(log: logPath, session: sessionID.uuidString, registry: registry, through: store?.step)
            replay = try WhatIfReplay(actions, skipping: steps)
        } catch let error as LogError {
            throw LiveTravelError(.unreadable, step: step, "the log cannot give the session's actions: \(error.message)")
        } catch {
            throw LiveTravelError(.cannotReplay, step: step, "the session does not replay without step \(step): \(error)")
        }
        guard let last = replay.states.last else { return try recordedState(at: 0) }
        return try decoded(last, step: step)
    }

    private func decoded(_ value: JSONValue, step: Int) throws(LiveTravelError) -> State {
        do {
            return try decoder.decode(State.self, from: value)
        } catch {
            throw LiveTravelError(.undecodable, step: step, "the state of step \(step): " + Self.refusal(error, type: State.self, in: value))
        }
    }

    /// One line for a person: what did not decode and where, never the error's debug text.
    private static func refusal(_ error: any Error, type: Any.Type, in value: JSONValue) -> String {
        guard let error = error as? DecodingError else { return "cannot decode \(DecodingFailure.typeName(type)): \(error)" }
        return DecodingFailure.describe(error, type: type, in: value)
    }
}
