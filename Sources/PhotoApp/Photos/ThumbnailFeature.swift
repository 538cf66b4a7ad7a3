import RewindCore

/// One photo of the list and its thumbnail, which loads, fails and retries on its own.
public struct ThumbnailState: Codable, Equatable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var status = LoadStatus.idle
    public var image: LoadedImage?
    public var errorMessage: String?

    public init(photo: Photo) {
        self.id = photo.id
        self.title = photo.title
    }
}

/// What happens to one thumbnail. Only `output` reaches the photo list.
public enum ThumbnailAction: Codable, Equatable, Sendable, OutputAction, DescribedAction {
    case didAppear
    case thumbnailResponse(ServiceResult<LoadedImage>)
    case didTapRetry
    case didTap
    case output(Output)

    /// What a thumbnail tells the list: the events it does not handle itself.
    public enum Output: Codable, Equatable, Sendable {
        case didSelect
    }

    public var origin: String { "thumbnail" }
}

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
            return .run { [backend] send in
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
