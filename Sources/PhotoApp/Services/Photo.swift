import RewindCodable

/// One photo of the list, as the service describes it.
@RewindCodable
public struct Photo: Codable, Equatable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var thumbnailURL: String
    public var imageURL: String

    public init(id: Int, title: String, thumbnailURL: String, imageURL: String) {
        self.id = id
        self.title = title
        self.thumbnailURL = thumbnailURL
        self.imageURL = imageURL
    }
}
