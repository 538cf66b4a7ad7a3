/// The scripted sessions of the photo flow.
enum PhotosScripts {
    static let all = [
        ScriptedSession(
            "photos-happy-browse", PhotosFlow.self,
            summary: "loads the list and every thumbnail, opens two photos"
        ) { driver in
            await driver.send(.didAppear)
            await browse(driver, photoIDs: [3, 7], embed: { $0 })
        },
        ScriptedSession(
            "photos-list-error-retry", PhotosFlow.self,
            summary: "the list fails to load, retry loads it",
            failing: [.photos]
        ) { driver in
            await driver.send(.didAppear)
            await driver.send(.didTapRetry, after: .seconds(1))
        },
        ScriptedSession(
            "photos-thumbnail-error-retry", PhotosFlow.self,
            summary: "one thumbnail fails; selecting it alerts; its retry loads it; it opens",
            failing: [.thumbnail(photoID: 4)]
        ) { driver in
            await driver.send(.didAppear)
            await driver.send(.thumbnail(id: 4, .didTap))
            await driver.send(.didDismissAlert)
            await driver.send(.thumbnail(id: 4, .didTapRetry))
            await browse(driver, photoIDs: [4], embed: { $0 })
        },
    ]

    /// Opens each photo's detail screen and closes it again.
    @MainActor
    static func browse<Flow: SeedFlow>(
        _ driver: Driver<Flow>, photoIDs: [Int], embed: (PhotosAction) -> Flow.Feature.Action
    ) async {
        for id in photoIDs {
            await driver.send(embed(.thumbnail(id: id, .didTap)), after: .seconds(2))
            await driver.send(embed(.detail(.didTapClose)), after: .seconds(3))
        }
    }
}
