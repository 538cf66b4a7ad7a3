import RewindCore
import RewindJSON

/// Takes the digest of a replayed state that writes its own text (`@RewindCodable`) with a
/// ``JSONStateWriter`` that keeps digests and no text: no tree is built, hashed and released,
/// which was most of checking a login recording.
///
/// A state that grows large goes back to trees for good: the stepper's memo encodes only the
/// elements of its arrays that changed, where the writer writes every value at every step.
/// One digester serves one stepper, on one thread.
@usableFromInline
final class ReplayDigester {
    // Unchecked, as the recorder's writer is: one thread touches it, and no method passes it
    // inout to code that could reach this object again.
    @exclusivity(unchecked) var writer: JSONStateWriter
    /// Set once a state is written as more values than this.
    @usableFromInline private(set) var prefersTrees = false

    /// States of more values than this are digested from their trees.
    static let largeState = 1_024

    @usableFromInline
    init(rule: StateDigest.Rule) {
        writer = JSONStateWriter(writingText: false, rule: rule)
    }

    /// The digest of `state`, written by `type`'s own writer; nil when the writer refuses a
    /// value, or once states are large.
    @usableFromInline
    func digest<State>(of state: State, as type: any JSONTreeEncodable.Type) -> StateDigest? {
        writer.reset(takingDigests: true)
        do {
            try type.writeJSON(of: state, to: &writer)
        } catch {
            return nil
        }
        if writer.nodeCount > Self.largeState {
            prefersTrees = true
            return nil
        }
        return writer.digest
    }

    /// Whether the state last digested holds a secret's placeholder.
    @usableFromInline
    func holdsPlaceholder() -> Bool {
        writer.containsSingleMemberObject(keyed: "$redacted")
    }
}
