import Foundation

/// One note, identified by a UUID the view makes when the user adds it.
///
/// Plain `Codable` (no `@RewindCodable`), and equal when the ids are: the shape of many
/// `Identifiable` models: to hear of a rename, observe notes with a comparison of your own
/// (`store.observe(\.notes, removingDuplicates: { $0.map(\.title) == $1.map(\.title) })`).
public struct Note: Codable, Identifiable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var isPinned = false

    public init(id: UUID, title: String, isPinned: Bool = false) {
        self.id = id
        self.title = title
        self.isPinned = isPinned
    }

    public static func == (lhs: Note, rhs: Note) -> Bool {
        lhs.id == rhs.id
    }
}
