import RewindCodable
import RewindCore

/// What happens on the detail screen.
@RewindCodable
public enum DetailAction: Codable, Equatable, Sendable, OutputAction, DescribedAction {
    case didAppear
    case imageResponse(ServiceResult<LoadedImage>)
    case didTapRetry
    case didTapClose
    case output(Output)

    /// What the detail screen tells the list.
    @RewindCodable
    public enum Output: Codable, Equatable, Sendable {
        case didClose
    }

    public var origin: String { "detail" }
}
