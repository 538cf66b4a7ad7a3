import RewindCodable
import RewindCore

/// What happens to one thumbnail. Only `output` reaches the photo list.
@RewindCodable
public enum ThumbnailAction: Codable, Equatable, Sendable, OutputAction, DescribedAction {
    case didAppear
    case thumbnailResponse(ServiceResult<LoadedImage>)
    case didTapRetry
    case didTap
    case output(Output)

    /// What a thumbnail tells the list: the events it does not handle itself.
    @RewindCodable
    public enum Output: Codable, Equatable, Sendable {
        case didSelect
    }

    public var origin: String { "thumbnail" }
}
