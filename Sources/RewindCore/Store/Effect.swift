/// The work a reducer asks for: follow-up actions, outputs to the parent flow, and async work
/// whose results come back as actions.
///
/// An effect never touches state. `.none` allocates nothing, so the common case of a reducer
/// that only changes state costs nothing on the dispatch path.
public struct Effect<Action: Sendable>: Sendable {
    @usableFromInline
    enum Operation: Sendable {
        /// Dispatched right after the current step; `isOutput` marks an output to the parent.
        case send(Action, isOutput: Bool)
        /// `name`, when the reducer gives one, is what replay compares the effect by.
        case run(name: String?, @Sendable (Send<Action>) async -> Void)
    }

    @usableFromInline let operations: [Operation]

    @usableFromInline
    init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// No work.
    @inlinable
    public static var none: Self { Self([]) }

    /// Whether the effect does nothing.
    @inlinable
    public var isNone: Bool { operations.isEmpty }

    /// Dispatches `action` as the next step, caused by the current one.
    public static func send(_ action: Action) -> Self {
        Self([.send(action, isOutput: false)])
    }

    /// Runs `work` outside the reducer; the actions it sends are dispatched with the current
    /// step as their cause.
    ///
    /// - Parameters:
    ///   - name: what the work is, such as `"auth.login"`: replay says a step "no longer
    ///     starts" it by this name. Work given none is counted instead. No name is made up
    ///     from the source location, which any edit above the call would change.
    ///   - work: the work, which sends its results back through `Send`.
    public static func run(name: String? = nil, _ work: @escaping @Sendable (Send<Action>) async -> Void) -> Self {
        Self([.run(name: name, work)])
    }

    /// Runs several effects, in order.
    public static func merge(_ effects: Self...) -> Self {
        merge(effects)
    }

    /// Runs several effects, in order.
    public static func merge(_ effects: some Sequence<Self>) -> Self {
        Self(effects.flatMap(\.operations))
    }

    /// Lifts a child's effect into its parent's action type.
    public func map<Parent: Sendable>(
        _ transform: @escaping @Sendable (Action) -> Parent
    ) -> Effect<Parent> {
        if operations.isEmpty { return .none }
        return Effect<Parent>(
            operations.map { operation in
                switch operation {
                case let .send(action, isOutput):
                    return .send(transform(action), isOutput: isOutput)
                case let .run(name, work):
                    return .run(name: name) { send in
                        await work(Send { action in send.deliver(transform(action)) })
                    }
                }
            })
    }
}

extension Effect {
    /// What the effect asks for, without running anything: what a step's reducer asked for
    /// besides its new state.
    @inlinable
    public var summary: EffectSummary<Action> {
        var summary = EffectSummary<Action>()
        for operation in operations {
            switch operation {
            case let .send(action, isOutput):
                if isOutput { summary.outputs.append(action) } else { summary.sends.append(action) }
            case let .run(name, _):
                summary.runs.append(name)
            }
        }
        return summary
    }
}

extension Effect where Action: OutputAction {
    /// Emits an output (Lasso's term) for the parent flow to handle.
    ///
    /// The output is listed with the current step's event and dispatched as the next step, so
    /// the parent's reaction is recorded like any other action.
    public static func output(_ output: Action.Output) -> Self {
        Self([.send(.output(output), isOutput: true)])
    }
}
