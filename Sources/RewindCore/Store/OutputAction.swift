/// An action type whose screen emits outputs to its parent flow, Lasso style.
///
/// A screen's action enum declares `case output(Output)`; that case satisfies this protocol.
/// The screen's own reducer ignores it; the parent flow handles it.
public protocol OutputAction: Sendable {
    associatedtype Output: Sendable

    /// Wraps an output as an action of this screen.
    static func output(_ output: Output) -> Self
}
