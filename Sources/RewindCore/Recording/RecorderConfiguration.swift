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
