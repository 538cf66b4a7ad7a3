import RewindCodable

/// Loading progress of anything fetched: a list, a thumbnail, an image.
@RewindCodable
public enum LoadStatus: String, Codable, Equatable, Sendable {
    case idle
    case loading
    case loaded
    case failed
}
