import RewindCore

/// The photo list's reducer: loads the list, hands each thumbnail its own events, and handles
/// only the outputs its children send up.
public struct PhotosFeature: Reducer, Sendable {
    let backend: FakeBackend
    private var thumbnail: ThumbnailFeature { ThumbnailFeature(backend: backend) }
    private var detail: DetailFeature { DetailFeature(backend: backend) }

    public init(backend: FakeBackend) {
        self.backend = backend
    }

    public func reduce(into state: inout PhotosState, action: PhotosAction) -> Effect<PhotosAction> {
        switch action {
        case .didAppear:
            guard state.status == .idle else { return .none }
            return load(&state)

        case .didTapRetry, .didPullToRefresh:
            guard state.status != .loading else { return .none }
            return load(&state)

        case let .photosResponse(.success(page)):
            state.status = .loaded
            state.title = page.title
            state.photos = page.photos.map(ThumbnailState.init(photo:))
            return .merge(
                state.photos.indices.map { index in
                    reduceThumbnail(at: index, in: &state, action: .didAppear)
                })

        case let .photosResponse(.failure(message)):
            state.status = .failed
            state.errorMessage = message
            return .none

        case .didDismissAlert:
            state.alert = nil
            return .none

        case let .thumbnail(id, .output(.didSelect)):
            guard let photo = state.photos.first(where: { $0.id == id }) else { return .none }
            switch photo.status {
            case .loaded:
                state.detail = DetailState(photoID: id, title: photo.title)
                return reduceDetail(&state, action: .didAppear)
            case .failed:
                state.alert = "“\(photo.title)” could not be loaded. Tap it to retry."
            case .idle, .loading:
                state.alert = "“\(photo.title)” is still loading."
            }
            return .none

        case let .thumbnail(id, childAction):
            guard let index = state.photos.firstIndex(where: { $0.id == id }) else { return .none }
            return reduceThumbnail(at: index, in: &state, action: childAction)

        case .detail(.output(.didClose)):
            state.detail = nil
            return .none

        case let .detail(childAction):
            return reduceDetail(&state, action: childAction)
        }
    }

    private func load(_ state: inout PhotosState) -> Effect<PhotosAction> {
        state.status = .loading
        state.errorMessage = nil
        return .run(name: "photos.list") { [backend] send in await send(.photosResponse(backend.photos())) }
    }

    private func reduceThumbnail(
        at index: Int, in state: inout PhotosState, action: ThumbnailAction
    ) -> Effect<PhotosAction> {
        let id = state.photos[index].id
        return thumbnail.reduce(into: &state.photos[index], action: action)
            .map { .thumbnail(id: id, $0) }
    }

    private func reduceDetail(_ state: inout PhotosState, action: DetailAction) -> Effect<PhotosAction> {
        // A late response for a detail screen that was already closed has nowhere to go.
        guard state.detail != nil else { return .none }
        return detail.reduce(into: &state.detail!, action: action).map(PhotosAction.detail)
    }
}
