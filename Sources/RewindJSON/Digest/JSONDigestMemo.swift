/// Digests of a run of trees that share most of their nodes, such as the states a log's
/// patches rebuild one from the next: an array or object the memo has met before costs a
/// lookup, not a walk of everything under it.
///
/// `check` computes the digest of every state it rebuilds; walking the whole state each step
/// was two fifths of its time on the photo app's sessions, though a step's patch changes one
/// path. A patched state shares every container off that path with the state before it
/// (copy-on-write), so only the containers on the path are new.
///
/// A small tree is hashed whole: for one of fewer than ``smallestRemembered`` containers, the
/// lookups and the copies cost more than they save (`check` of a log of login states took a
/// quarter longer with the memo than without). The memo counts a tree's containers every
/// 256 digests, so a state that grows is remembered from then on.
///
/// Containers are known by their storage. The memo keeps every container it remembers alive,
/// so no other container can be allocated at a remembered address: the same storage, still
/// shared, holds the same members. Keeping them alive makes a patch copy the containers on
/// its path instead of changing them in place; that copy is the price of the memo. It forgets
/// the containers no longer in the last tree once it holds twice as many as that tree has.
public final class JSONDigestMemo {
    private struct Storage: Hashable {
        let keys: UnsafeRawPointer?
        let values: UnsafeRawPointer?
    }

    private enum Container {
        case array([JSONValue])
        case object(JSONObject)
    }

    private var digests: [Storage: (container: Container, digest: UInt64)] = [:]
    /// When the memo next forgets the containers the last tree no longer has.
    private var sweepAt = JSONDigestMemo.smallestSweep
    private static let smallestSweep = 1_024
    /// Whether trees are remembered: whether the last one counted had ``smallestRemembered``
    /// containers or more.
    private var remembers = false
    private var digestsUntilCount = 0

    /// The fewest containers a tree has for the memo to remember it.
    public static let smallestRemembered = 16

    /// The rule by which arrays are hashed.
    public let rule: StateDigest.Rule

    public init(rule: StateDigest.Rule = .newest) {
        self.rule = rule
    }

    /// The digest of `value`, equal to `value.digest(by: rule)`.
    public func digest(of value: JSONValue) -> StateDigest {
        if digestsUntilCount == 0 {
            digestsUntilCount = 256
            var containers = 0
            remembers = Self.count(value, upTo: Self.smallestRemembered, into: &containers)
            if !remembers {
                digests.removeAll()
                sweepAt = Self.smallestSweep
            }
        }
        digestsUntilCount -= 1
        guard remembers else { return value.digest(by: rule) }
        let digest = remembered(value)
        if digests.count >= sweepAt {
            var kept: [Storage: (container: Container, digest: UInt64)] = [:]
            keep(value, into: &kept)
            digests = kept
            sweepAt = max(Self.smallestSweep, 2 * kept.count)
        }
        return StateDigest(rawValue: digest)
    }

    private func remembered(_ value: JSONValue) -> UInt64 {
        guard let (storage, container) = Self.storage(of: value) else {
            return StructuralHasher.digest(of: value, rule: rule) { remembered($0) }
        }
        if let known = digests[storage] { return known.digest }
        let digest = StructuralHasher.digest(of: value, rule: rule) { remembered($0) }
        digests[storage] = (container, digest)
        return digest
    }

    /// Copies into `kept` the remembered containers of `value`.
    private func keep(_ value: JSONValue, into kept: inout [Storage: (container: Container, digest: UInt64)]) {
        guard let (storage, _) = Self.storage(of: value), kept[storage] == nil, let known = digests[storage] else { return }
        kept[storage] = known
        switch value {
        case let .array(elements): for element in elements { keep(element, into: &kept) }
        case let .object(object): for member in object.values { keep(member, into: &kept) }
        default: break
        }
    }

    /// Whether `value` has `limit` containers or more, counting them into `count` until then.
    private static func count(_ value: JSONValue, upTo limit: Int, into count: inout Int) -> Bool {
        switch value {
        case let .array(elements):
            count += 1
            return count >= limit || elements.contains { Self.count($0, upTo: limit, into: &count) }
        case let .object(object):
            count += 1
            return count >= limit || object.values.contains { Self.count($0, upTo: limit, into: &count) }
        default:
            return false
        }
    }

    /// Where a non-empty array or object keeps its members, and the container that keeps them
    /// alive; nil for scalars and empty containers, which are as quick to hash.
    private static func storage(of value: JSONValue) -> (Storage, Container)? {
        switch value {
        case let .array(elements) where !elements.isEmpty:
            return (Storage(keys: nil, values: address(of: elements)), .array(elements))
        case let .object(object) where !object.keys.isEmpty:
            return (Storage(keys: address(of: object.keys), values: address(of: object.values)), .object(object))
        default:
            return nil
        }
    }

    private static func address<Element>(of array: [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}
