import RewindCore

/// A test-only state whose secrets sit deep: in an array of structs and in an enum payload,
/// with a plain `canary` field for checks that need a value that does reach the log.
struct Vault: Codable, Equatable, Sendable {
    struct Account: Codable, Equatable, Sendable {
        var name: String
        var pin: Secret
    }

    struct Credentials: Codable, Equatable, Sendable {
        var user: String
        var token: Secret
    }

    enum Stage: Codable, Equatable, Sendable {
        case locked
        case unlocking(attempt: Int, credentials: [Credentials])
        case open(since: Int)
    }

    var accounts: [Account] = []
    var stage = Stage.locked
    var canary = ""

    /// What a user does to the vault; the secrets travel in the payloads too.
    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case addAccount(name: String, pin: Secret)
        case unlock(Stage)
        case note(String)

        var origin: String { "vault" }
    }

    /// Plays a session that types `secret` as a pin and as a token, step after step; returns
    /// the number of steps.
    static func play(into recorder: Recorder<Vault, Action>, secret: String) -> Int {
        var vault = Vault()
        recorder.start(initialState: vault)
        var step = 0
        func record(_ action: Action) {
            step += 1
            recorder.record(action, state: vault, step: step)
        }
        for index in 0..<20 {
            vault.accounts.append(Account(name: "account \(index)", pin: Secret(secret)))
            record(.addAccount(name: "account \(index)", pin: Secret(secret)))
            let stage = Stage.unlocking(attempt: index, credentials: [Credentials(user: "u\(index)", token: Secret(secret))])
            vault.stage = stage
            record(.unlock(stage))
        }
        vault.stage = .open(since: step)
        record(.unlock(.open(since: step)))
        return step
    }
}
