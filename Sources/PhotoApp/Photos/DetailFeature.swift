import RewindCore

/// The detail screen of one photo, which loads the full-size image.
public struct DetailState: Codable, Equatable, Sendable {
    public var photoID: Int
    public var title: String
    public var status = LoadStatus.idle
    public var image: LoadedImage?
    public var errorMessage: String?

    public init(photoID: Int, title: String) {
        self.photoID = photoID
        self.title = title
    }
}

/// What happens on the detail screen.
public enum DetailAction: Codable, Equatable, Sendable, OutputAction, DescribedAction {
    case didAppear
    case imageResponse(ServiceResult<LoadedImage>)
    case didTapRetry
    case didTapClose
    case output(Output)

    /// What the detail screen tells the list.
    public enum Output: Codable, Equatable, Sendable {
        case didClose
    }

    public var origin: String { "detail" }
}

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
            return .run { [backend] send in
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
