/// Holds one state, changes it only through actions, and runs the effects the reducer asks for.
///
/// Dispatch is synchronous on the main actor and takes no locks and no queues: it runs the
/// reducer, tells the middleware, and notifies observers. Follow-up actions (`.send`, outputs,
/// effect results) are dispatched after the current step, each with the step that caused it.
@MainActor
public final class Store<State: Sendable, Action: Sendable> {
    // The dispatch path is inlinable so that callers specialize it for their State and Action:
    // unspecialized generic code costs hundreds of nanoseconds per dispatch.

    /// The current state.
    ///
    /// Where the Observation module is available, reading it inside `withObservationTracking`
    /// (as a SwiftUI view's body does) registers for its next change.
    public var state: State {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            let box = observationRegistrar()
            box.registrar.access(self, keyPath: box.keyPath)
        }
        return shownState
    }
    /// The number of actions dispatched so far; the present state is the state after this step.
    public var step: Int { _step }

    // Only the main actor touches these, and no access overlaps another: the dynamic
    // exclusivity checks they would get as class properties cost more than the dispatch.
    @usableFromInline @exclusivity(unchecked) var _state: State
    @usableFromInline @exclusivity(unchecked) var _step = 0
    /// What a live inspector asked of the store (`Store+Travel.swift`), as bits: it shows
    /// ``travelled`` instead of the present (``LiveFlags/travelling``), or the step about to be
    /// reduced is one it dispatched (``LiveFlags/dispatched``). One byte, so that dispatch tests
    /// one load for both, not an optional state.
    @usableFromInline @exclusivity(unchecked) var liveFlags: LiveFlags = []
    @usableFromInline @exclusivity(unchecked) var travelled: State?
    @usableFromInline @exclusivity(unchecked) var heldActions = 0
    /// The origin the step an inspector dispatched is recorded with.
    @usableFromInline @exclusivity(unchecked) var dispatchedOrigin = ""
    /// What lives as long as the store (``keep(_:)``).
    var kept: [AnyObject] = []
    @usableFromInline let reducer: any Reducer<State, Action>
    /// The store's recorder: the one it was made with (``init(initialState:reducer:recordingTo:session:configuration:middleware:execution:)``)
    /// or the first among its middleware; nil when it records nothing. Call its
    /// ``Recorder/close()`` when the session ends, and ``Recorder/flush()`` at moments that
    /// must survive a crash.
    // Held by its concrete type: the dispatch path, specialized for the app's types, then
    // specializes the recorder's hand-off too (through the middleware protocol it runs as
    // generic code, several times slower).
    public let recorder: Recorder<State, Action>?
    /// The recorder's ``Recorder/afterStep``, kept here: read through the recorder, with the
    /// recorder bound to call it, it cost 19 instructions a dispatch without one (callgrind).
    @usableFromInline let afterStep: Recorder<State, Action>.AfterStep?
    /// The other middleware, in the order given.
    @usableFromInline let middleware: [any StoreMiddleware<State, Action>]
    @usableFromInline let execution: EffectExecution
    @usableFromInline @exclusivity(unchecked) var observers: [(id: Int, call: (State) -> Void)] = []
    var nextObserverID = 0
    @usableFromInline @exclusivity(unchecked) var queuedActions: [(action: Action, cause: Int?)] = []
    @usableFromInline @exclusivity(unchecked) var queuedEffects: [(work: @Sendable (Send<Action>) async -> Void, cause: Int)] = []
    @usableFromInline @exclusivity(unchecked) var isDispatching = false
    /// Observation's registrar, made the first time ``state`` is read where Observation
    /// exists; until then dispatch tells no one (see `Store+Observable.swift`).
    @usableFromInline @exclusivity(unchecked) var registrarBox: AnyObject?

    /// Creates a store that starts at `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: the state at step 0.
    ///   - reducer: applies each action to the state.
    ///   - middleware: sees every action, in order, except that the first ``Recorder`` hears
    ///     of each step before the others; each is told the initial state now.
    ///   - execution: `.live` runs effects at once; `.manual` waits for ``settle()``.
    public init(
        initialState: State,
        reducer: some Reducer<State, Action>,
        middleware: [any StoreMiddleware<State, Action>] = [],
        execution: EffectExecution = .live
    ) {
        self._state = initialState
        self.reducer = reducer
        var others = middleware
        if let index = others.firstIndex(where: { $0 is Recorder<State, Action> }) {
            recorder = others.remove(at: index) as? Recorder<State, Action>
        } else {
            recorder = nil
        }
        afterStep = recorder?.afterStep
        self.middleware = others
        self.execution = execution
        for each in middleware {
            each.storeDidStart(initialState: initialState)
        }
    }

    /// Dispatches a user intent or any other action from outside the store.
    ///
    /// While the store travels (``travel(to:)``), the action is held back: counted in
    /// ``heldActionCount``, neither reduced nor recorded.
    @inlinable
    public func send(_ action: Action) {
        if liveFlags.contains(.travelling) {
            heldActions += 1
            return
        }
        dispatch(action, cause: nil)
    }

    /// Whether effects are waiting for ``settle()``.
    public var hasPendingEffects: Bool { !queuedEffects.isEmpty }

    /// Runs the waiting effects one at a time, in the order they were started, until none is
    /// left; effects started by their results run too.
    public func settle() async {
        while !queuedEffects.isEmpty {
            let next = queuedEffects.removeFirst()
            await next.work(sender(cause: next.cause))
        }
    }

    // Always inlined: since `send` tests the travel flag first, the optimizer left this a call
    // of its own, 28 instructions a dispatch more than at 0ee0cdb (callgrind).
    @inlinable @inline(__always)
    func dispatch(_ action: Action, cause: Int?) {
        if isDispatching {
            queuedActions.append((action, cause))
            return
        }
        isDispatching = true
        defer { isDispatching = false }
        reduce(action, cause: cause)
        while !queuedActions.isEmpty {
            let next = queuedActions.removeFirst()
            reduce(next.action, cause: next.cause)
        }
    }

    @inlinable
    func reduce(_ action: Action, cause: Int?) {
        let context = StepContext(step: _step + 1, cause: cause)
        if !middleware.isEmpty {
            for each in middleware {
                each.willReduce(action, state: _state, context: context)
            }
        }
        let live = liveFlags
        // While travelling, the present changes unseen: the shown state is the past one.
        let isShown = !live.contains(.travelling)
        if isShown, let registrarBox { willChangeState(registrarBox) }
        let effect = reducer.reduce(into: &_state, action: action)
        _step = context.step
        // What the step asked for, recorded for replay to compare (DESIGN.md section 16): built
        // only for a step whose effect is not `.none`, so that the others pay nothing for it.
        var outputs: [Action] = []
        var asked: Recorder<State, Action>.Asked?
        if !effect.isNone {
            var sends: [Action] = []
            var runs: [String?] = []
            for operation in effect.operations {
                switch operation {
                case let .send(followUp, isOutput):
                    queuedActions.append((followUp, context.step))
                    if isOutput { outputs.append(followUp) } else { sends.append(followUp) }
                case let .run(name, work):
                    runs.append(name)
                    start(work, cause: context.step)
                }
            }
            asked = .boxing(sends: sends, runs: runs)
        }
        if live.contains(.dispatched) {
            asked = .relabelling(asked, origin: dispatchedOrigin)
            liveFlags.remove(.dispatched)
        }
        recorder?.record(action, readingState: { _state }, step: context.step, cause: context.cause, outputs: outputs, asked: asked)
        if let afterStep { afterStep(action, _state, outputs, context.step) }
        if !middleware.isEmpty {
            let summary = EffectSummary(sends: asked?.sends ?? [], outputs: outputs, runs: asked?.runs ?? [])
            for each in middleware {
                each.didReduce(action, state: _state, context: context, asked: summary)
            }
        }
        if isShown {
            if let registrarBox { didChangeState(registrarBox) }
            if !observers.isEmpty {
                for observer in observers { observer.call(_state) }
            }
        }
    }

    @usableFromInline
    func start(_ work: @escaping @Sendable (Send<Action>) async -> Void, cause: Int) {
        switch execution {
        case .live:
            let send = sender(cause: cause)
            Task { await work(send) }
        case .manual:
            queuedEffects.append((work, cause))
        }
    }

    @usableFromInline
    func sender(cause: Int) -> Send<Action> {
        Send { [weak self] action in self?.dispatch(action, cause: cause) }
    }
}
