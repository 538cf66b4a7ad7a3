/// A registration that keeps calling its observer until cancelled.
@MainActor
public final class StoreObservation {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the observer; later changes are not reported.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

extension Store {
    /// Calls `onChange` with the value at `keyPath` each time a step changes it.
    ///
    /// The observer is not called for the current value, and not for steps that leave the
    /// value equal. It lives until ``StoreObservation/cancel()`` or until the store is gone.
    ///
    /// "Equal" is the value's own `==`: where that compares less than the value holds (items
    /// equal by their `id` alone), a change of the rest is not reported; compare it all with
    /// ``observe(_:removingDuplicates:onChange:)``.
    @discardableResult
    public func observe<Value: Equatable>(
        _ keyPath: KeyPath<State, Value>,
        onChange: @escaping (Value) -> Void
    ) -> StoreObservation {
        observe(keyPath, removingDuplicates: { $0 == $1 }, onChange: onChange)
    }

    /// Calls `onChange` with the value at `keyPath` after each step that leaves it other than
    /// it was, as `isDuplicate` tells: for a value whose `==` compares less than it holds, or
    /// that has none.
    @discardableResult
    public func observe<Value>(
        _ keyPath: KeyPath<State, Value>,
        removingDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
        onChange: @escaping (Value) -> Void
    ) -> StoreObservation {
        var last = shownState[keyPath: keyPath]
        return addObserver { state in
            let value = state[keyPath: keyPath]
            if !isDuplicate(last, value) {
                last = value
                onChange(value)
            }
        }
    }

    /// The value at `keyPath` now and after every step that changes it, as an async sequence.
    ///
    /// The sequence ends when the task iterating it is cancelled.
    public func values<Value: Equatable & Sendable>(
        of keyPath: KeyPath<State, Value>
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        continuation.yield(shownState[keyPath: keyPath])
        let observation = observe(keyPath) { continuation.yield($0) }
        continuation.onTermination = { _ in
            Task { @MainActor in observation.cancel() }
        }
        return stream
    }

    private func addObserver(_ observer: @escaping (State) -> Void) -> StoreObservation {
        let id = nextObserverID
        nextObserverID += 1
        observers.append((id, observer))
        return StoreObservation { [weak self] in self?.observers.removeAll { $0.id == id } }
    }
}
