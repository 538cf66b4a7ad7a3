/// An action that can say which screen sent it and what it is called, for logs and timelines.
public protocol DescribedAction: Sendable {
    /// The path of the screen or child that sent the action, like `login` or
    /// `photos/thumbnail[7]`.
    var origin: String { get }

    /// The action's case name, like `didTapLogin`. A parent forwards its child's name.
    ///
    /// It must depend only on which cases the action is made of, never on payload values: a
    /// recorder asks once per shape of encoded action (its keys, scalars left out) and reuses
    /// the answer.
    var name: String { get }
}

extension DescribedAction {
    /// The enum case name, read by reflection: the label of a case with a payload, or the
    /// case itself when it has none.
    public var name: String {
        if let label = Mirror(reflecting: self).children.first?.label {
            return label
        }
        return String(describing: self)
    }
}
