/// A call the fake backend answers, used to plan failures call by call.
public enum Endpoint: Hashable, Sendable, CustomStringConvertible {
    case login
    case photos
    case thumbnail(photoID: Int)
    case image(photoID: Int)

    public var description: String {
        switch self {
        case .login: "login"
        case .photos: "photos"
        case let .thumbnail(id): "thumbnail[\(id)]"
        case let .image(id): "image[\(id)]"
        }
    }

    /// How long the call takes on the simulated clock.
    var latency: Duration {
        switch self {
        case .login: .milliseconds(420)
        case .photos: .milliseconds(310)
        case .thumbnail: .milliseconds(45)
        case .image: .milliseconds(180)
        }
    }
}
