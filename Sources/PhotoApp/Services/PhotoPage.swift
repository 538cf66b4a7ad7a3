import RewindCodable

/// A titled page of photos.
@RewindCodable
public struct PhotoPage: Codable, Equatable, Sendable {
    public var title: String
    public var photos: [Photo]

    public init(title: String, photos: [Photo]) {
        self.title = title
        self.photos = photos
    }
}
