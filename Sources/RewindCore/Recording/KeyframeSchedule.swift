import RewindJSON

/// Which steps of a session store their state whole (a keyframe) rather than as a patch from
/// the state before: the one rule of everything that stores steps, the recorder, `import`,
/// `replay --update` and `minimize`'s sessions.
///
/// A keyframe is due every ``interval`` steps, and is stored there once the patches since the
/// last one add up to at least a quarter of its size; a step whose step before was not stored
/// (a session's first step, a step after a gap) is always one, for a patch needs the state
/// before it. So keyframes cost at most four times the patches around them, bytes written and
/// read, whatever the state's size: a 1,000-photo state (140 KB whole, 46 bytes a patch) gets
/// one every 768 steps, a 10,000-photo one (1.4 MB) every 7,680, a login state every 256.
/// Rebuilding a state reads at most a keyframe, a quarter of its size in patches, and one
/// interval's patches more: 70 ms for `rewind show` at the worst step of a 10,000-photo log,
/// against 40 ms at a keyframe.
public struct KeyframeSchedule: Sendable, Equatable {
    /// Keyframes fall due at the steps that are multiples of it.
    public let interval: Int
    /// The size of the last keyframe stored, in bytes of canonical JSON.
    public private(set) var keyframeBytes = 0
    /// The size of the patches stored since.
    public private(set) var patchBytes = 0

    /// The patches since a keyframe add up to at least this share of it before the next.
    @usableFromInline static let patchShare = 4

    public init(interval: Int) {
        self.interval = max(1, interval)
    }

    /// Whether `step` is stored whole, given whether the step before it was stored.
    public func storesKeyframe(at step: Int, followingStoredStep: Bool) -> Bool {
        !followingStoredStep || (step % interval == 0 && patchBytes * Self.patchShare >= keyframeBytes)
    }

    /// Notes a state stored in `bytes` of canonical JSON, whole or as a patch.
    public mutating func stored(bytes: Int, keyframe: Bool) {
        if keyframe {
            keyframeBytes = bytes
            patchBytes = 0
        } else {
            patchBytes += bytes
        }
    }

    /// `state`, the state after `step`, as it is stored after `previous`, the state before it:
    /// whole, or as its patch from `previous`; noted.
    public mutating func record(of state: JSONValue, at step: Int, after previous: JSONValue, followingStoredStep: Bool) -> RecordedEvent.StateRecord {
        var bytes: [UInt8] = []
        if storesKeyframe(at: step, followingStoredStep: followingStoredStep) {
            state.canonicalBytes(into: &bytes)
            stored(bytes: bytes.count, keyframe: true)
            return .keyframe(state)
        }
        let patch = JSONPatch.between(previous, state)
        patch.canonicalBytes(into: &bytes)
        stored(bytes: bytes.count, keyframe: false)
        return .patch(patch)
    }
}
