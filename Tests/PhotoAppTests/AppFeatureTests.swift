import PhotoApp
import RewindCore
import Testing

@MainActor
@Suite struct AppFeatureTests {
    private func signIn(_ app: Harness<AppFlow>) async {
        await app.send(.login(.didUpdateUsername("bob")), .login(.didUpdatePassword("builder-2024")), .login(.didTapLogin))
    }

    @Test func userDidLogInShowsThePhotosAndLoadsThem() async {
        let app = Harness(AppFlow.self, photoCount: 2)
        await signIn(app)
        #expect(app.state.route == .photos)
        #expect(app.state.user?.username == "bob")
        #expect(app.state.photos.status == .loaded)
        #expect(app.state.photos.photos.map(\.status) == [.loaded, .loaded])
        let origins = app.trace.steps.map(\.action.origin)
        #expect(origins == ["login", "login", "login", "login", "login", "photos", "photos/thumbnail[1]", "photos/thumbnail[2]"])
    }

    @Test func signupShowsTheSignupScreenAndDismissReturns() async {
        let app = Harness(AppFlow.self)
        await app.send(.login(.didTapSignup))
        #expect(app.state.route == .signup)
        await app.send(.didDismissSignup)
        #expect(app.state.route == .login)
    }

    @Test func logoutStartsOver() async {
        let app = Harness(AppFlow.self, photoCount: 1)
        await signIn(app)
        await app.send(.didTapLogout)
        #expect(app.state == AppState())
    }

    @Test func photoActionsOutsideThePhotoScreenAreIgnored() async {
        let app = Harness(AppFlow.self)
        let steps = await app.send(.photos(.didAppear))
        #expect(steps.count == 1)
        #expect(app.state == AppState())
    }
}
