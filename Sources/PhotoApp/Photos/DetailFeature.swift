import RewindCore

/// The detail screen's reducer.
public struct DetailFeature: Reducer, Sendable {
    let backend: FakeBackend

    public init(backend: FakeBackend) {
        self.backend = backend
    }

    public func reduce(into state: inout DetailState, action: DetailAction) -> Effect<DetailAction> {
        switch action {
        case .didAppear, .didTapRetry:
            guard state.status != .loading, state.status != .loaded else { return .none }
            state.status = .loading
            state.errorMessage = nil
            let id = state.photoID
            return .run(name: "photos.image") { [backend] send in
                await send(.imageResponse(backend.image(photoID: id)))
            }

        case let .imageResponse(.success(image)):
            state.status = .loaded
            state.image = image
            return .none

        case let .imageResponse(.failure(message)):
            state.status = .failed
            state.errorMessage = message
            return .none

        case .didTapClose:
            return .output(.didClose)

        case .output:
            return .none
        }
    }
}
