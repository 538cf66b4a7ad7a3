extension Effect {
    /// One piece of async work an effect starts, with the name the reducer gave it.
    public struct Work: Sendable {
        /// What the work is (`"auth.login"`), nil when the reducer gave it none.
        public let name: String?
        /// The work itself: it sends its results back through the `Send` it is given.
        public let run: @Sendable (Send<Action>) async -> Void
    }

    /// The async work the effect starts, in order: what a `TestStore` runs under the test's
    /// control, where a ``Store`` would run it at once.
    public var work: [Work] {
        operations.compactMap { operation in
            if case let .run(name, run) = operation { return Work(name: name, run: run) }
            return nil
        }
    }
}

extension Effect {
    /// The actions the effect sends right after its step (`.send`) and the outputs it emits
    /// (`.output`), in the order it lists them: the order a ``Store`` dispatches them in.
    public var followUps: [(action: Action, isOutput: Bool)] {
        operations.compactMap { operation in
            if case let .send(action, isOutput) = operation { return (action, isOutput) }
            return nil
        }
    }
}
