/// Time travel of the running app (DESIGN.md section 17): the store shows a past state, and
/// the app is paused until it resumes.
///
/// The store keeps its present while it travels. Only what is shown changes: ``Store/state``,
/// its observers (``Store/observe(_:onChange:)``) and SwiftUI (Observation) see the past state,
/// and actions sent from outside (``Store/send(_:)``, the UI's) are held back and counted, not
/// reduced. Effects already running still send their results: those reduce the present unseen
/// and are recorded as usual, so that the log stays the record of what the app did and the
/// app resumes where it really is.
extension Store {
    /// Whether the store shows a past state (``travel(to:)``) rather than its present.
    public var isTravelling: Bool { liveFlags.contains(.travelling) }

    /// The actions sent from outside since the store began to travel, held back and not
    /// reduced; 0 when it is not travelling.
    public var heldActionCount: Int { heldActions }

    /// The present state, the state after step ``step``, whether the store shows it or travels.
    public var presentState: State { _state }

    /// Shows `state` in place of the present, and holds back actions sent from outside until
    /// ``resume()``. Observers and SwiftUI hear of the change at once. Travelling again while
    /// travelling shows the new state; the count of held actions goes on.
    ///
    /// `state` is usually a recorded one, decoded from the log (the live inspector sends the
    /// app to a step this way), or the present recomputed without some steps.
    public func travel(to state: State) {
        if let registrarBox { willChangeState(registrarBox) }
        if !liveFlags.contains(.travelling) { heldActions = 0 }
        travelled = state
        liveFlags.insert(.travelling)
        if let registrarBox { didChangeState(registrarBox) }
        for observer in observers { observer.call(state) }
    }

    /// Shows the present again and takes actions again. The actions held back while travelling
    /// are dropped, not sent late: they were meant for a state the app no longer shows.
    public func resume() {
        guard liveFlags.contains(.travelling) else { return }
        if let registrarBox { willChangeState(registrarBox) }
        liveFlags.remove(.travelling)
        travelled = nil
        heldActions = 0
        if let registrarBox { didChangeState(registrarBox) }
        for observer in observers { observer.call(_state) }
    }

    /// Dispatches `action` as one sent from outside, recorded with `origin` in place of the
    /// action's own (``DescribedAction/origin``): what a live inspector dispatches is recorded as
    /// the inspector's (`RewindLive`). Called while the store dispatches (from an observer), the
    /// action waits its turn and is recorded with its own origin, never another step with this
    /// one's. A travelling store holds it back as it holds any `send`.
    package func send(_ action: Action, recordedAs origin: String) {
        if liveFlags.contains(.travelling) {
            heldActions += 1
            return
        }
        if !isDispatching {
            dispatchedOrigin = origin
            liveFlags.insert(.dispatched)
        }
        dispatch(action, cause: nil)
    }

    /// Keeps `object` as long as the store lives: a live connection (`RewindLive`), which holds
    /// the store weakly.
    package func keep(_ object: AnyObject) {
        kept.append(object)
    }

    /// The state shown: the travelled one, or the present.
    @usableFromInline
    var shownState: State {
        if liveFlags.contains(.travelling), let travelled { return travelled }
        return _state
    }
}
