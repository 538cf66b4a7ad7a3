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
        case run(@Sendable (Send<Action>) async -> Void)
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
    public var isNone: Bool { operations.isEmpty }

    /// Dispatches `action` as the next step, caused by the current one.
    public static func send(_ action: Action) -> Self {
        Self([.send(action, isOutput: false)])
    }

    /// Runs `work` outside the reducer; the actions it sends are dispatched with the current
    /// step as their cause.
    public static func run(_ work: @escaping @Sendable (Send<Action>) async -> Void) -> Self {
        Self([.run(work)])
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
                case let .run(work):
                    return .run { send in
                        await work(Send { action in send.deliver(transform(action)) })
                    }
                }
            })
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
