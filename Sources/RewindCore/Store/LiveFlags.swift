/// What a live inspector asked of a store, as the bits dispatch tests in one load
/// (`Store+Travel.swift`).
@usableFromInline
struct LiveFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    @inlinable
    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The store shows a past state and holds back what `send` brings.
    @usableFromInline static let travelling = LiveFlags(rawValue: 1)
    /// The step about to be reduced is one an inspector dispatched: it is recorded with the
    /// store's `dispatchedOrigin`.
    @usableFromInline static let dispatched = LiveFlags(rawValue: 2)
}
