import PhotoApp
import RewindCore
import Testing

@MainActor
@Suite struct LoginFeatureTests {
    private func filled(_ harness: Harness<LoginFlow>, username: String = "alice", password: String = "wonderland42") async {
        await harness.send(.didUpdateUsername(username), .didUpdatePassword(Secret(password)))
    }

    @Test func editingAFieldStoresItAndClearsItsFlag() async {
        let login = Harness(LoginFlow.self)
        await login.send(.didTapLogin)
        #expect(login.state.isUsernameValid == false)
        await login.send(.didUpdateUsername("bob"))
        #expect(login.state.username == "bob")
        #expect(login.state.isUsernameValid == nil)
        #expect(login.state.isPasswordValid == false)
        await login.send(.didUpdatePassword("secret-123"))
        #expect(login.state.password == Secret("secret-123"))
        #expect(login.state.isPasswordValid == nil)
    }

    @Test func invalidFieldsAreFlaggedAndNoRequestIsMade() async {
        let login = Harness(LoginFlow.self)
        await filled(login, username: "al", password: "short")
        let steps = await login.send(.didTapLogin)
        #expect(steps.count == 1)
        #expect(login.state.isUsernameValid == false)
        #expect(login.state.isPasswordValid == false)
        #expect(login.state.status == .idle)
        #expect(login.state.errorMessage == "Please correct the highlighted fields.")
    }

    @Test func onlyTheInvalidFieldIsFlagged() async {
        let login = Harness(LoginFlow.self)
        await filled(login, username: "alice", password: "short")
        await login.send(.didTapLogin)
        #expect(login.state.isUsernameValid == true)
        #expect(login.state.isPasswordValid == false)
    }

    @Test func aValidFormGoesInFlightThenSucceedsAndEmitsUserDidLogin() async {
        let login = Harness(LoginFlow.self)
        await filled(login)
        let steps = await login.send(.didTapLogin)
        #expect(steps.map(\.action.name) == ["didTapLogin", "loginResponse", "output"])
        #expect(steps[0].state.status == .inFlight)
        #expect(steps[0].state.isUsernameValid == true && steps[0].state.isPasswordValid == true)
        let alice = User(id: 1, username: "alice", displayName: "Alice Liddell")
        #expect(steps[1].action == .loginResponse(.success(alice)))
        #expect(steps[1].state.status == .succeeded)
        #expect(steps[1].outputs == [.output(.userDidLogin(alice))])
        #expect(steps[2].context.cause == steps[1].context.step)
    }

    @Test func aWrongPasswordFailsWithAMessage() async {
        let login = Harness(LoginFlow.self)
        await filled(login, password: "not-her-password")
        await login.send(.didTapLogin)
        #expect(login.state.status == .failed)
        #expect(login.state.errorMessage == "Wrong username or password.")
    }

    @Test func aNetworkFailureFailsAndARetrySucceeds() async {
        let login = Harness(LoginFlow.self, failing: [.login])
        await filled(login)
        await login.send(.didTapLogin)
        #expect(login.state.status == .failed)
        #expect(login.state.errorMessage == "The network connection was lost (login).")
        await login.send(.didTapLogin)
        #expect(login.state.status == .succeeded)
        #expect(login.state.errorMessage == nil)
    }

    @Test func editingAfterAFailureClearsTheError() async {
        let login = Harness(LoginFlow.self, failing: [.login])
        await filled(login)
        await login.send(.didTapLogin)
        await login.send(.didUpdatePassword("wonderland4"))
        #expect(login.state.status == .idle)
        #expect(login.state.errorMessage == nil)
    }

    @Test func tappingLoginWhileInFlightDoesNothing() {
        var state = LoginState()
        state.username = "alice"
        state.password = "wonderland42"
        state.status = .inFlight
        let before = state
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        let effect = LoginFeature(backend: backend).reduce(into: &state, action: .didTapLogin)
        #expect(effect.isNone)
        #expect(state == before)
    }

    @Test func signupEmitsUserWantsToSignUp() async {
        let login = Harness(LoginFlow.self)
        let steps = await login.send(.didTapSignup)
        #expect(steps.first?.outputs == [.output(.userWantsToSignUp)])
        #expect(steps.count == 2)
    }

    @Test func validationReadsOnlyThePasswordLength() {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        var typed = LoginState()
        typed.username = "alice"
        typed.password = "wonderland42"
        var replayed = typed
        replayed.password = Secret(redactedLength: 12)
        _ = LoginFeature(backend: backend).reduce(into: &typed, action: .didTapLogin)
        _ = LoginFeature(backend: backend).reduce(into: &replayed, action: .didTapLogin)
        #expect(typed.isPasswordValid == replayed.isPasswordValid)
        #expect(typed.status == replayed.status)
    }
}
