import RewindCodable
import RewindCore

/// The detail screen of one photo, which loads the full-size image.
@RewindCodable
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
