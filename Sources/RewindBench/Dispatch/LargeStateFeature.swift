import PhotoApp
import RewindCodable
import RewindCore
import RewindJSON

/// The large-state workload: a photo list of 1,000 loaded photos where each action renames
/// one photo, so exactly one field changes per step.
struct LargeStateFeature: Reducer {
    /// Marked, as the photo app's own types are, so that recording and replay code it without
    /// `Codable`'s machinery.
    @RewindCodable
    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case didRename(id: Int, title: String)
        var origin: String { "photos" }
        var name: String { "didRename" }
    }

    func reduce(into state: inout PhotosState, action: Action) -> Effect<Action> {
        switch action {
        case let .didRename(id, title):
            state.photos[id].title = title
            return .none
        }
    }

    /// A loaded list of `count` photos.
    static func state(photos count: Int) -> PhotosState {
        var state = PhotosState()
        state.status = .loaded
        state.title = "Popular this week"
        state.photos = (0..<count).map { id in
            var thumbnail = ThumbnailState(
                photo: Photo(
                    id: id, title: "Photo number \(id)",
                    thumbnailURL: "https://photos.example/thumbs/\(id).jpg", imageURL: "https://photos.example/full/\(id).jpg"
                ))
            thumbnail.status = .loaded
            thumbnail.image = LoadedImage(url: "https://photos.example/thumbs/\(id).jpg", width: 150, height: 150)
            return thumbnail
        }
        return state
    }

    /// Two states of `photos` photos, encoded apart (sharing no storage), the second with one
    /// title changed: what `diff_large_ms` times and `instructions_diff_large` counts.
    static func statesOneTitleApart(photos: Int) throws -> (old: JSONValue, new: JSONValue) {
        var state = Self.state(photos: photos)
        let encoder = JSONValueEncoder()
        let old = try encoder.encode(state)
        state.photos[photos / 2].title = "Changed"
        return (old, try encoder.encode(state))
    }

    /// `count` actions renaming pseudo-random photos, made before timing starts.
    static func actions(_ count: Int, photos: Int) -> [Action] {
        var random = SeededGenerator(seed: 77)
        return (0..<count).map { step in
            .didRename(id: Int.random(in: 0..<photos, using: &random), title: "Renamed \(step)")
        }
    }
}
