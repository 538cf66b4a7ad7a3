/// How a recorder batches, bounds and reports.
public struct RecorderConfiguration: Sendable {
    /// How many steps may wait for the encoder thread: the ring of that many slots is allocated
    /// once; as many encoded items may wait for the writer thread.
    public var capacity = 16_384
    /// What dispatch does when that many are waiting.
    public var overflow = OverflowPolicy.block
    /// A state is stored whole instead of as a patch (a keyframe) at most every this many
    /// steps, but after a gap (see ``KeyframeSchedule``).
    public var keyframeInterval = 256
    /// Whether a recorder that follows the state with the store's reducer writes the steps it
    /// holds back as soon as it has encoded every step waiting, rather than once a state of the
    /// store confirms them (the next step's, or a flush): every step reaches the log within
    /// milliseconds, for a commit a step at a human pace. The steps so written carry the
    /// replica's states unconfirmed, as after a flush; a reducer that is not deterministic is
    /// still caught at the next check. Off by default; a store connected to a live inspector
    /// (`RewindLive`) turns it on, so that its last step shows at once.
    public var writesWhenCaughtUp = false
    /// The fraction of sessions to record, from 0 to 1: a session is recorded or not as its id
    /// decides (``SessionSampling``), so every recorder of one session agrees. A session left
    /// out records nothing, starts no thread, and its dispatch only asks.
    public var sampling = 1.0
    /// Called on the encoder thread when encoding fails, on the writer thread when the sink
    /// does; the steps it lost are marked as a gap in the log.
    public var onError: @Sendable (any Error) -> Void = { _ in }

    public init() {}

    /// Where a session recorded with this configuration stores its states whole.
    public var keyframes: KeyframeSchedule { KeyframeSchedule(interval: keyframeInterval) }

    /// Whether `step` is stored whole rather than as a patch, before any state was stored.
    @available(*, deprecated, message: "use keyframes, a KeyframeSchedule, which also weighs the states stored")
    public func storesKeyframe(at step: Int, followingStoredStep: Bool) -> Bool {
        keyframes.storesKeyframe(at: step, followingStoredStep: followingStoredStep)
    }
}
