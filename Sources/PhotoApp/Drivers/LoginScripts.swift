/// The scripted sessions of the login screen.
enum LoginScripts {
    static let all = [
        ScriptedSession(
            "login-happy", LoginFlow.self,
            summary: "types valid credentials and signs in"
        ) { driver in
            await signIn(driver, username: "alice", password: "wonderland42", embed: { $0 })
        },
        ScriptedSession(
            "login-invalid-then-fixed", LoginFlow.self,
            summary: "taps login with invalid fields, fixes them, signs in"
        ) { driver in
            await driver.type("al") { .didUpdateUsername($0) }
            await driver.type("short") { .didUpdatePassword(.init($0)) }
            await driver.send(.didTapLogin)
            await driver.type("alice") { .didUpdateUsername($0) }
            await driver.type("wonderland42") { .didUpdatePassword(.init($0)) }
            await driver.send(.didTapLogin)
        },
        ScriptedSession(
            "login-network-error-retry", LoginFlow.self,
            summary: "the first request fails on the network, the retry signs in",
            failing: [.login]
        ) { driver in
            await signIn(driver, username: "alice", password: "wonderland42", embed: { $0 })
            await driver.send(.didTapLogin, after: .seconds(2))
        },
    ]

    /// Types both fields and taps login, on any flow that holds the login screen.
    @MainActor
    static func signIn<Flow: SeedFlow>(
        _ driver: Driver<Flow>, username: String, password: String,
        embed: (LoginAction) -> Flow.Feature.Action
    ) async {
        await driver.type(username) { embed(.didUpdateUsername($0)) }
        await driver.type(password) { embed(.didUpdatePassword(.init($0))) }
        await driver.send(embed(.didTapLogin))
    }
}
