import RewindCodable

/// A loaded image: where it came from and its size.
@RewindCodable
public struct LoadedImage: Codable, Equatable, Sendable {
    public var url: String
    public var width: Int
    public var height: Int

    public init(url: String, width: Int, height: Int) {
        self.url = url
        self.width = width
        self.height = height
    }
}
