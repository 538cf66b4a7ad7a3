/// How a recorder batches, bounds and reports.
public struct RecorderConfiguration: Sendable {
    /// How many steps may wait for the writer: the ring of that many slots is allocated once.
    public var capacity = 16_384
    /// What dispatch does when that many are waiting.
    public var overflow = OverflowPolicy.block
    /// Every this many steps the whole state is stored instead of a patch.
    public var keyframeInterval = 256
    /// Called on the writer thread when encoding or the sink fails; the steps it lost are
    /// marked as a gap in the log.
    public var onError: @Sendable (any Error) -> Void = { _ in }

    public init() {}
}
