/// A signed-in user.
public struct User: Codable, Equatable, Sendable {
    public var id: Int
    public var username: String
    public var displayName: String

    public init(id: Int, username: String, displayName: String) {
        self.id = id
        self.username = username
        self.displayName = displayName
    }
}

/// One photo of the list, as the service describes it.
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

/// A titled page of photos.
public struct PhotoPage: Codable, Equatable, Sendable {
    public var title: String
    public var photos: [Photo]

    public init(title: String, photos: [Photo]) {
        self.title = title
        self.photos = photos
    }
}

/// A loaded image: where it came from and its size.
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

/// What a service call returned: a value, or a failure message for the user.
public enum ServiceResult<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    case success(Value)
    case failure(String)
}

/// Loading progress of anything fetched: a list, a thumbnail, an image.
public enum LoadStatus: String, Codable, Equatable, Sendable {
    case idle
    case loading
    case loaded
    case failed
}
