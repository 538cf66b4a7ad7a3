import RewindCodable

/// A signed-in user.
@RewindCodable
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
