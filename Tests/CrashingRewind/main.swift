import Foundation
import PhotoApp
import RewindCLI
import RewindCore
import RewindReplay

/// The login reducer with a planted trap: tapping login again while the form's error still
/// shows stops the program. For the tests of `minimize --crash`, which need a command line
/// whose reducer crashes.
struct TrapOnSecondTap: Reducer, Sendable {
    let base: LoginFeature

    func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
        if case .didTapLogin = action, state.errorMessage != nil, state.status == .idle {
            preconditionFailure("planted: a tap while the error shows")
        }
        return base.reduce(into: &state, action: action)
    }
}

let flows = ReplayRegistry([
    ReplayFlow(LoginFlow.name) { TrapOnSecondTap(base: LoginFeature(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: Date())))) }
])
await RewindCommandLine(commandName: "crashing-rewind", flows: flows).main()
