import RewindCore
import RewindJSON

/// What `rewind write-test` needs of a flow's Swift types, which a registry otherwise hides:
/// recorded values decoded into them (to spell them as Swift), their names, and the Swift
/// expression that builds the reducer in a test.
public struct FlowTypes: Sendable {
    /// `String(reflecting:)` of the state, action and reducer types (`TodoApp.TodoState`).
    public let stateType: String
    public let actionType: String
    public let reducerType: String
    /// The Swift expression the registration gave for a written test to build the reducer.
    public let testReducer: String?
    @usableFromInline let decodeState: @Sendable (JSONValue) throws -> Any
    @usableFromInline let decodeAction: @Sendable (JSONValue) throws -> Any

    @inlinable
    init<R: Reducer>(_ reducer: R.Type, expression: String?) where R.State: RecordableState, R.Action: RecordableAction {
        stateType = String(reflecting: R.State.self)
        actionType = String(reflecting: R.Action.self)
        reducerType = String(reflecting: R.self)
        testReducer = expression
        decodeState = { try JSONValueDecoder().decode(R.State.self, from: $0) }
        decodeAction = { try JSONValueDecoder().decode(R.Action.self, from: $0) }
    }

    /// The Swift expression a written test builds the reducer with: the registration's, or
    /// the reducer type's name and `()`; nil when the type has no name a test can write.
    public var reducerExpression: String? {
        testReducer ?? SwiftTypeName(reducerType).spelled.map { $0 + "()" }
    }

    /// The recorded `state` as a value of the flow's state type.
    public func state(_ json: JSONValue) throws -> Any { try decodeState(json) }

    /// The recorded `action` as a value of the flow's action type.
    public func action(_ json: JSONValue) throws -> Any { try decodeAction(json) }
}
