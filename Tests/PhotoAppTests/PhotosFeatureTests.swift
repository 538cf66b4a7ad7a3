import PhotoApp
import RewindCore
import Testing

@MainActor
@Suite struct PhotosFeatureTests {
    @Test func appearingLoadsTheListThenEveryThumbnail() async {
        let photos = Harness(PhotosFlow.self, photoCount: 3)
        let steps = await photos.send(.didAppear)
        #expect(steps[0].state.status == .loading)
        #expect(steps.map(\.action.name) == ["didAppear", "photosResponse", "thumbnailResponse", "thumbnailResponse", "thumbnailResponse"])
        #expect(steps[1].state.title == "Popular this week")
        #expect(steps[1].state.photos.map(\.status) == [.loading, .loading, .loading])
        #expect(steps[2...].allSatisfy { $0.context.cause == 2 })
        #expect(steps.map(\.action.origin) == ["photos", "photos", "photos/thumbnail[1]", "photos/thumbnail[2]", "photos/thumbnail[3]"])
        #expect(photos.state.photos.map(\.status) == [.loaded, .loaded, .loaded])
        #expect(photos.state.photos[0].image == LoadedImage(url: "https://photos.example/thumbs/1.jpg", width: 150, height: 150))
    }

    @Test func aFailedListShowsTheErrorAndRetryReloads() async {
        let photos = Harness(PhotosFlow.self, failing: [.photos], photoCount: 2)
        await photos.send(.didAppear)
        #expect(photos.state.status == .failed)
        #expect(photos.state.errorMessage == "The network connection was lost (photos).")
        #expect(photos.state.photos.isEmpty)
        await photos.send(.didTapRetry)
        #expect(photos.state.status == .loaded)
        #expect(photos.state.errorMessage == nil)
        #expect(photos.state.photos.count == 2)
    }

    @Test func appearingTwiceDoesNotReload() async {
        let photos = Harness(PhotosFlow.self, photoCount: 1)
        await photos.send(.didAppear)
        let steps = await photos.send(.didAppear)
        #expect(steps.count == 1)
    }

    @Test func pullToRefreshReloadsTheList() async {
        let photos = Harness(PhotosFlow.self, photoCount: 2)
        await photos.send(.didAppear)
        let steps = await photos.send(.didPullToRefresh)
        #expect(steps.map(\.action.name) == ["didPullToRefresh", "photosResponse", "thumbnailResponse", "thumbnailResponse"])
    }

    @Test func aThumbnailFailsAndItsOwnRetryLoadsIt() async {
        let photos = Harness(PhotosFlow.self, failing: [.thumbnail(photoID: 2)], photoCount: 3)
        await photos.send(.didAppear)
        #expect(photos.state.photos.map(\.status) == [.loaded, .failed, .loaded])
        #expect(photos.state.photos[1].errorMessage == "The network connection was lost (thumbnail[2]).")
        let steps = await photos.send(.thumbnail(id: 2, .didTapRetry))
        #expect(steps.map(\.action.origin) == ["photos/thumbnail[2]", "photos/thumbnail[2]"])
        #expect(steps[0].state.photos[1].status == .loading)
        #expect(photos.state.photos[1].status == .loaded)
        #expect(photos.state.photos[1].errorMessage == nil)
    }

    @Test func selectingALoadedPhotoPresentsItsDetailWhichLoads() async {
        let photos = Harness(PhotosFlow.self, photoCount: 3)
        await photos.send(.didAppear)
        let steps = await photos.send(.thumbnail(id: 3, .didTap))
        #expect(steps.map(\.action.name) == ["didTap", "output", "imageResponse"])
        #expect(steps[1].state.detail?.status == .loading)
        #expect(steps[2].action.origin == "photos/detail")
        #expect(photos.state.detail?.photoID == 3)
        #expect(photos.state.detail?.title == photos.state.photos[2].title)
        #expect(photos.state.detail?.status == .loaded)
        #expect(photos.state.alert == nil)
    }

    @Test func aFailedDetailShowsTheErrorAndItsRetryLoadsIt() async {
        let photos = Harness(PhotosFlow.self, failing: [.image(photoID: 1)], photoCount: 1)
        await photos.send(.didAppear, .thumbnail(id: 1, .didTap))
        #expect(photos.state.detail?.status == .failed)
        #expect(photos.state.detail?.errorMessage == "The network connection was lost (image[1]).")
        await photos.send(.detail(.didTapRetry))
        #expect(photos.state.detail?.status == .loaded)
        #expect(photos.state.detail?.image?.url == "https://photos.example/full/1.jpg")
    }

    @Test func closingTheDetailReturnsToTheList() async {
        let photos = Harness(PhotosFlow.self, photoCount: 1)
        await photos.send(.didAppear, .thumbnail(id: 1, .didTap))
        let steps = await photos.send(.detail(.didTapClose))
        #expect(steps.map(\.action.name) == ["didTapClose", "output"])
        #expect(photos.state.detail == nil)
    }

    @Test func selectingAPhotoStillLoadingShowsAnAlert() {
        var state = PhotosState()
        state.status = .loaded
        state.photos = [ThumbnailState(photo: Photo(id: 1, title: "Misty harbour", thumbnailURL: "", imageURL: ""))]
        state.photos[0].status = .loading
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        let effect = PhotosFeature(backend: backend).reduce(into: &state, action: .thumbnail(id: 1, .output(.didSelect)))
        #expect(effect.isNone)
        #expect(state.alert == "“Misty harbour” is still loading.")
        #expect(state.detail == nil)
    }

    @Test func selectingAFailedPhotoShowsAnAlertThatDismisses() async {
        let photos = Harness(PhotosFlow.self, failing: [.thumbnail(photoID: 1)], photoCount: 1)
        await photos.send(.didAppear, .thumbnail(id: 1, .didTap))
        let title = photos.state.photos[0].title
        #expect(photos.state.alert == "“\(title)” could not be loaded. Tap it to retry.")
        #expect(photos.state.detail == nil)
        await photos.send(.didDismissAlert)
        #expect(photos.state.alert == nil)
    }

    @Test func eventsAThumbnailHandlesDoNotReachTheParent() async {
        let photos = Harness(PhotosFlow.self, failing: [.thumbnail(photoID: 2)], photoCount: 3)
        await photos.send(.didAppear)
        let before = photos.state
        let handled = await photos.send(.thumbnail(id: 2, .didTapRetry))
        #expect(handled.allSatisfy { $0.outputs.isEmpty })
        var expected = before
        expected.photos[1] = photos.state.photos[1]
        #expect(photos.state == expected, "only the thumbnail's own state changes")

        let bubbled = await photos.send(.thumbnail(id: 2, .didTap))
        #expect(bubbled[0].outputs == [.thumbnail(id: 2, .output(.didSelect))])
        #expect(bubbled[1].action == .thumbnail(id: 2, .output(.didSelect)))
        #expect(bubbled[1].state.detail?.photoID == 2, "the parent handled the output")
    }

    @Test func aLateDetailResponseAfterClosingIsIgnored() {
        var state = PhotosState()
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        let image = LoadedImage(url: "u", width: 1, height: 1)
        let effect = PhotosFeature(backend: backend).reduce(into: &state, action: .detail(.imageResponse(.success(image))))
        #expect(effect.isNone)
        #expect(state == PhotosState())
    }
}
