import RewindCodable
import RewindCore

/// One photo of the list and its thumbnail, which loads, fails and retries on its own.
@RewindCodable
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
