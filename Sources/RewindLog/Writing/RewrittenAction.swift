import RewindCore
import RewindJSON

/// A recorded action moved to an app's current schema, as ``LogRewriter`` stores it: the
/// action, and the name, origin and outputs that the current types give it, so that the
/// timeline and `log --action` see the new names.
package struct RewrittenAction: Sendable, Equatable {
    package var action: JSONValue
    /// The action's case name under the current types, like `filterChanged`.
    package var name: String
    package var origin: String
    /// The step's outputs, moved to the current schema too.
    package var outputs: [JSONValue]
    /// What the step asks for under the current reducer, as a replay found it; nil keeps what
    /// was recorded.
    package var effects: RecordedEffects?

    package init(action: JSONValue, name: String, origin: String, outputs: [JSONValue], effects: RecordedEffects? = nil) {
        self.action = action
        self.name = name
        self.origin = origin
        self.outputs = outputs
        self.effects = effects
    }
}
