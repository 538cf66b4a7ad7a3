/// What a live inspector asked of a store, as the bits dispatch tests in one load
/// (`Store+Travel.swift`).
@usableFromInline
struct LiveFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    @inlinable
    init(rawValue: UInt8) { self.rawValue = rawValue }

    // Computed, not `static let`: a stored one is a global read through its addressor, a call
    // of 5 instructions at each of the three tests of a dispatch (callgrind), which a store
    // that never travels paid too.

    /// The store shows a past state and holds back what `send` brings.
    @inlinable static var travelling: LiveFlags { LiveFlags(rawValue: 1) }
    /// The step about to be reduced is one an inspector dispatched: it is recorded with the
    /// store's `dispatchedOrigin`.
    @inlinable static var dispatched: LiveFlags { LiveFlags(rawValue: 2) }
}
