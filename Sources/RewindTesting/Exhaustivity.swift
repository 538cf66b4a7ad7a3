/// How much of a step a ``TestStore`` makes the test say.
public enum Exhaustivity: Sendable, Equatable {
    /// Everything: every changed field, every action an effect sends back, every output and
    /// every effect a step starts. A state closure turns the state before into the state after.
    case on
    /// Only what the test asserts: a state closure gets the state after and only the fields it
    /// sets are compared; received actions the test does not ask for are reduced and pass.
    case off
}
