/// What a replicating recorder's encoder thread asks of the dispatching thread.
@usableFromInline
enum StateRequest {
    /// The store's state every `confirmationInterval` steps.
    @inlinable static var atIntervals: Int { 0 }
    /// The store's state with the next step too: the encoder has caught up with steps to confirm.
    @inlinable static var next: Int { 1 }
    /// The store's state at every step: the replica disagreed with it.
    @inlinable static var always: Int { 2 }
}
