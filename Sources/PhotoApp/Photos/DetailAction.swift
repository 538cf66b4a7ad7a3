import RewindCore

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
