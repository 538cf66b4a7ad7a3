import RewindCore

/// A thumbnail's reducer: data goes down, events it cannot handle go up as outputs.
public struct ThumbnailFeature: Reducer, Sendable {
    let backend: FakeBackend

    public init(backend: FakeBackend) {
        self.backend = backend
    }

    public func reduce(into state: inout ThumbnailState, action: ThumbnailAction) -> Effect<ThumbnailAction> {
        switch action {
        case .didAppear, .didTapRetry:
            guard state.status != .loading, state.status != .loaded else { return .none }
            state.status = .loading
            state.errorMessage = nil
            let id = state.id
            return .run(name: "photos.thumbnail") { [backend] send in
                await send(.thumbnailResponse(backend.thumbnail(photoID: id)))
            }

        case let .thumbnailResponse(.success(image)):
            state.status = .loaded
            state.image = image
            return .none

        case let .thumbnailResponse(.failure(message)):
            state.status = .failed
            state.errorMessage = message
            return .none

        case .didTap:
            return .output(.didSelect)

        case .output:
            return .none
        }
    }
}
