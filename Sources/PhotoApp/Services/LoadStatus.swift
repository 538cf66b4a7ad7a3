/// Loading progress of anything fetched: a list, a thumbnail, an image.
public enum LoadStatus: String, Codable, Equatable, Sendable {
    case idle
    case loading
    case loaded
    case failed
}
