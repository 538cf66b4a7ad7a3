import Observation

/// A store is `Observable` where the Observation module exists (iOS 17, macOS 14 and later,
/// and Linux): a SwiftUI view that reads `store.state` is redrawn after each step that runs.
///
/// Below those versions the package still works; only this conformance is missing. The
/// registrar is made the first time `state` is read, so a store nobody reads from (a
/// replay, a test driver) pays nothing for it; after that, each dispatch tells it twice
/// (`rewind bench`: `dispatch_observed_ns` beside `dispatch_plain_ns`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Store: Observable {}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class StoreRegistrar<State: Sendable, Action: Sendable> {
    let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path into a generic class is built anew at each use.
    let keyPath: KeyPath<Store<State, Action>, State>

    init(keyPath: KeyPath<Store<State, Action>, State>) {
        self.keyPath = keyPath
    }
}

extension Store {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func observationRegistrar() -> StoreRegistrar<State, Action> {
        if let registrarBox {
            return unsafeDowncast(registrarBox, to: StoreRegistrar<State, Action>.self)
        }
        let box = StoreRegistrar<State, Action>(keyPath: \.state)
        registrarBox = box
        return box
    }

    /// Tells Observation that the state is about to change.
    @usableFromInline
    func willChangeState(_ box: AnyObject) {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            let box = unsafeDowncast(box, to: StoreRegistrar<State, Action>.self)
            box.registrar.willSet(self, keyPath: box.keyPath)
        }
    }

    /// Tells Observation that the state has changed.
    @usableFromInline
    func didChangeState(_ box: AnyObject) {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            let box = unsafeDowncast(box, to: StoreRegistrar<State, Action>.self)
            box.registrar.didSet(self, keyPath: box.keyPath)
        }
    }
}
