import RewindJSON

/// An action that can say which screen sent it and what it is called, for logs and timelines.
///
/// Both have defaults, so an action enum usually only declares the conformance: the origin is
/// the type's name without `Action` (`TodoAction` → `todo`), the name the case's.
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
    /// The type's name without an `Action` suffix, its first letter lowered: `TodoAction` →
    /// `todo`, `Settings.Action` → `settings`.
    public var origin: String {
        Self.defaultOrigin
    }

    static var defaultOrigin: String {
        // `Module.TodoAction` or `Module.Settings.Action`, without the module.
        var names = String(reflecting: Self.self).split(separator: ".").dropFirst().map(String.init)
        if names.count > 1, names.last == "Action" { names.removeLast() }
        var name = names.last ?? String(describing: Self.self)
        if name.count > "Action".count, name.hasSuffix("Action") { name.removeLast("Action".count) }
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// The enum case name, read by reflection: the label of a case with a payload, or the
    /// case itself when it has none.
    ///
    /// For a case without a payload this is what `String(describing:)` prints, which a type's
    /// own `description` replaces; an `Encodable` action reads the case from its encoding instead.
    public var name: String {
        if let label = Mirror(reflecting: self).children.first?.label {
            return label
        }
        return String(describing: self)
    }
}

extension DescribedAction where Self: Encodable {
    /// The enum case name as `Codable` writes it: the one key of the encoded action
    /// (`{"didTapLogin": {}}`), so that it never depends on a `description` of the type's own.
    /// An action that does not encode as one key falls back to reflection.
    public var name: String {
        if case let .object(object)? = try? JSONValueEncoder().encode(self), object.count == 1, let key = object.keys.first {
            return key
        }
        if let label = Mirror(reflecting: self).children.first?.label {
            return label
        }
        return String(describing: self)
    }
}
