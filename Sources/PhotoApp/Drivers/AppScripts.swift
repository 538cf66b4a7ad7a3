/// The scripted sessions of the whole app.
enum AppScripts {
    static let all = [
        ScriptedSession(
            "app-full", AppFlow.self,
            summary: "signs in, browses, a detail image fails and its retry loads it",
            failing: [.image(photoID: 2)]
        ) { driver in
            await LoginScripts.signIn(driver, username: "bob", password: "builder-2024", embed: AppAction.login)
            await PhotosScripts.browse(driver, photoIDs: [5], embed: AppAction.photos)
            await driver.send(.photos(.thumbnail(id: 2, .didTap)), after: .seconds(2))
            await driver.send(.photos(.detail(.didTapRetry)), after: .seconds(1))
            await driver.send(.photos(.detail(.didTapClose)), after: .seconds(4))
            await driver.send(.didTapLogout, after: .seconds(2))
        }
    ]
}
