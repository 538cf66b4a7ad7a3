import RewindCodable

/// One thing to do.
///
/// Two items are equal when their ids are, as `Identifiable` models often say: Rewind stores
/// what the values hold, whatever `==` says, so a renamed item is recorded with its new title.
@RewindCodable
public struct TodoItem: Codable, Identifiable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var isDone = false

    public init(id: Int, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }

    public static func == (lhs: TodoItem, rhs: TodoItem) -> Bool {
        lhs.id == rhs.id
    }
}
