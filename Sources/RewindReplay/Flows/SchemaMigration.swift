import RewindJSON

/// Upgrades the JSON of recordings written with one schema version of an app's types to the
/// next, before they are decoded.
public struct SchemaMigration: Sendable {
    /// The schema version this migration reads; it produces `from + 1`.
    public let from: Int
    let state: @Sendable (inout JSONValue) throws -> Void
    let action: @Sendable (inout JSONValue) throws -> Void

    /// A migration from schema version `from`; each closure edits one state or one action.
    public init(
        from: Int,
        state: @escaping @Sendable (inout JSONValue) throws -> Void = { _ in },
        action: @escaping @Sendable (inout JSONValue) throws -> Void = { _ in }
    ) {
        self.from = from
        self.state = state
        self.action = action
    }
}
