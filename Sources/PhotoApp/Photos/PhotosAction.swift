import RewindCodable
import RewindCore

/// What happens on the photo list: its own intents and responses, and its children's actions.
@RewindCodable
public enum PhotosAction: Codable, Equatable, Sendable, DescribedAction {
    case didAppear
    case photosResponse(ServiceResult<PhotoPage>)
    case didTapRetry
    case didPullToRefresh
    case didDismissAlert
    case thumbnail(id: Int, ThumbnailAction)
    case detail(DetailAction)

    public var origin: String {
        switch self {
        case let .thumbnail(id, _): "photos/thumbnail[\(id)]"
        case .detail: "photos/detail"
        default: "photos"
        }
    }

    public var name: String {
        switch self {
        case let .thumbnail(_, action): action.name
        case let .detail(action): action.name
        case .didAppear: "didAppear"
        case .photosResponse: "photosResponse"
        case .didTapRetry: "didTapRetry"
        case .didPullToRefresh: "didPullToRefresh"
        case .didDismissAlert: "didDismissAlert"
        }
    }
}
