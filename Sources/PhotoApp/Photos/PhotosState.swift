import RewindCodable

/// The photo list screen, its thumbnails, and the detail or alert it presents.
@RewindCodable
public struct PhotosState: Codable, Equatable, Sendable {
    /// The list's title, once loaded.
    public var title: String?
    public var status = LoadStatus.idle
    public var errorMessage: String?
    public var photos: [ThumbnailState] = []
    /// The presented detail screen, if any.
    public var detail: DetailState?
    /// The presented alert's message, if any.
    public var alert: String?

    public init() {}
}
