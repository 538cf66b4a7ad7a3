// Reducers with a bug planted in each, for tools/write-test-check: a test written from a
// recording of the real reducer must fail against each, naming the step and what differs.
import PhotoApp
import RewindCore
import TodoApp

/// A state change: the id of the next item no longer advances.
struct NextIDNotAdvanced: Reducer {
    let base = TodoFeature(api: TodoAPI())

    func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
        let before = state.nextID
        let effect = base.reduce(into: &state, action: action)
        state.nextID = before
        return effect
    }
}

/// A dropped effect: a sync no longer calls the service.
struct SyncWithoutRequest: Reducer {
    let base = TodoFeature(api: TodoAPI())

    func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
        let effect = base.reduce(into: &state, action: action)
        return action == .syncTapped ? .none : effect
    }
}

/// A dropped output: the login screen no longer says the user logged in.
struct LoginWithoutOutput: Reducer {
    let base = AppFeature(backend: .idle)

    func reduce(into state: inout AppState, action: AppAction) -> Effect<AppAction> {
        let effect = base.reduce(into: &state, action: action)
        if case .login(.loginResponse) = action { return .none }
        return effect
    }
}
