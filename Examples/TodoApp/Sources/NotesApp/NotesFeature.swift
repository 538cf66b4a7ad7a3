import Foundation
import RewindCore

/// The notes screen's reducer.
public struct NotesFeature: Reducer, Sendable {
    public init() {}

    public func reduce(into state: inout NotesState, action: NotesAction) -> Effect<NotesAction> {
        switch action {
        case let .addNote(id, title):
            state.notes.append(Note(id: id, title: title))
        case let .renameNote(id, title):
            guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return .none }
            state.notes[index].title = title
        case let .togglePin(id):
            guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return .none }
            state.notes[index].isPinned.toggle()
        case let .deleteNote(id):
            state.notes.removeAll { $0.id == id }
        case let .tokenEntered(token):
            state.token = token
        case .signInTapped:
            // Reads the token's characters: a token is `nt_WORKSPACE_KEY`.
            let parts = state.token.value.split(separator: "_")
            if parts.count == 3, parts[0] == "nt" {
                state.account = .signedIn(workspace: String(parts[1]))
            } else {
                state.account = .refused(reason: "That is not a notes token.")
            }
        }
        return .none
    }
}
