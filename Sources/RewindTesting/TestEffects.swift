/// What a ``TestStore`` does with the async work (`Effect.run`) a step starts.
public enum TestEffects: Sendable, Equatable {
    /// Runs it, with the dependencies the test gave the reducer (no real clock or network):
    /// the test asserts each action it sends back with `receive`, and ``TestStore/finish(timeout:sourceLocation:)``
    /// waits for it to end.
    case run
    /// Runs none of it (effects never write state, DESIGN 2): the test says which work a step
    /// starts, by name (`send(_:starts:)`), and hands in the result the work would have sent
    /// with `deliver(_:from:)`, as a recording holds it. What `rewind write-test` writes.
    case byName
    /// Runs none of the work, asserts none of it, and sends nothing back: every step, an
    /// effect's result too, is sent by the test. What `rewind write-test` writes for a session
    /// whose log did not record which work its steps started (an older format): its states
    /// are asserted, its effects are not.
    case ignored
}
