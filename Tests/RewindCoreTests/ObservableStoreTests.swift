import Observation
import RewindCore
import Testing

/// A store through the Observation module, as SwiftUI sees it. The tests carry the module's
/// availability, which Swift Testing takes on a test but refuses on a suite: older systems
/// skip them.
@MainActor
@Suite struct ObservableStoreTests {
    /// Whether an onChange of `withObservationTracking` has fired; Sendable for its closure.
    final class Fired: @unchecked Sendable {
        // Only touched on the main actor: the store dispatches there.
        var count = 0
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func trackingTheStateSeesTheNextStep() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        let fired = Fired()
        let count = withObservationTracking {
            store.state.count
        } onChange: {
            fired.count += 1
        }
        #expect(count == 0)
        #expect(fired.count == 0)
        store.send(.increment)
        #expect(fired.count == 1, "the change after send is seen")
        #expect(store.state.count == 1)
        store.send(.increment)
        #expect(fired.count == 1, "withObservationTracking fires once per registration")
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func trackingThatStartsAfterSomeStepsSeesTheNext() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        let fired = Fired()
        store.send(.increment)
        withObservationTracking {
            _ = store.state
        } onChange: {
            fired.count += 1
        }
        store.send(.increment)
        #expect(fired.count == 1)
        #expect(store.state.count == 2)
    }
}
