import Foundation
import RewindCore

/// Everything that changes the notes screen. The view makes a new note's id and sends it in
/// the action, so a replay gives the same ids.
///
/// Plain `Codable`: the origin defaults to `notes` (the type's name without `Action`), each
/// name to its case.
public enum NotesAction: Codable, Equatable, Sendable, DescribedAction {
    case addNote(id: UUID, title: String)
    case renameNote(id: UUID, title: String)
    case togglePin(id: UUID)
    case deleteNote(id: UUID)
    case tokenEntered(Secret)
    case signInTapped
}
