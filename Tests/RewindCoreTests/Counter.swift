import RewindCore

/// A tiny feature that exercises every kind of effect.
struct Counter: Reducer {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var fact: String?
    }

    enum Action: Codable, Equatable, Sendable, OutputAction, DescribedAction {
        case increment
        case didTapFact
        case factResponse(String)
        case didTapDone
        case output(Output)

        enum Output: Codable, Equatable, Sendable { case didFinish(count: Int) }

        var origin: String { "counter" }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .didTapFact:
            let count = state.count
            return .run { send in await send(.factResponse("\(count) is a number")) }
        case let .factResponse(fact):
            state.fact = fact
            return .none
        case .didTapDone:
            return .output(.didFinish(count: state.count))
        case .output:
            return .none
        }
    }
}
