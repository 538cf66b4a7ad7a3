import RewindCore

/// The photo list with its thumbnails and detail screen.
public enum PhotosFlow: SeedFlow {
    public static let name = "photos"
    public static var initialState: PhotosState { PhotosState() }
    public static func reducer(backend: FakeBackend) -> PhotosFeature { PhotosFeature(backend: backend) }
}
