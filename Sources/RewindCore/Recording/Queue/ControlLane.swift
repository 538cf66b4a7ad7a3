import Atomics
import Foundation

/// Control items beside a ring (a session's start, a flush, the end), each with its cut: the
/// count of items the ring had published when it came. The consumer takes a control item once
/// it has taken every item before the cut, so it follows the steps pushed before it.
///
/// Control items may come from any thread while the ring's producer pushes without a lock, so
/// they do not enter the ring. Each gets a ticket, which a caller waits on until the consumer
/// has finished the item (``waitUntilDone(_:)``, ``complete()``). Items that need no waiting
/// (a gap marker) go in without a ticket, before an item that has one.
final class ControlLane<Element>: @unchecked Sendable {
    // Sendable by hand: `entries`, `issuedTicket` and `isClosed` are guarded by `lock`,
    // `completedTicket` by `done`; `pending` is atomic.

    private let lock = UnfairLock()
    private var entries: [(item: Element, cut: Int)] = []
    private var issuedTicket = 0
    private var isClosed = false

    /// Entries waiting, read by the consumer without the lock.
    private let pending = UnsafeAtomic<Int>.create(0)

    private let done = NSCondition()
    private var completedTicket = 0

    init() {}

    deinit {
        pending.destroy()
    }

    /// Queues `item` at the cut `cut()` reads, after the entry `first()` makes, if any; both
    /// are called under the lane's lock, so that entries go in the order of their cuts.
    /// Returns the item's ticket.
    ///
    /// Once an item came `closing`, later ones are ignored (`first` and `cut` are not called)
    /// and get the closing item's ticket: waiting for it is all that is left.
    func enqueue(_ item: Element, closing: Bool = false, after first: () -> (item: Element, cut: Int)? = { nil }, cut: () -> Int) -> Int {
        lock.withLock {
            if isClosed { return issuedTicket }
            isClosed = closing
            if let first = first() {
                entries.append(first)
                pending.wrappingIncrement(ordering: .releasing)
            }
            entries.append((item, cut()))
            pending.wrappingIncrement(ordering: .releasing)
            issuedTicket += 1
            return issuedTicket
        }
    }

    // MARK: The consumer

    /// Whether no entry waits; without the lock.
    var isEmpty: Bool {
        pending.load(ordering: .acquiring) == 0
    }

    /// ``isEmpty``, in the single total order of the sequentially consistent operations, for a
    /// consumer about to wait.
    var isEmptyInOrder: Bool {
        pending.load(ordering: .sequentiallyConsistent) == 0
    }

    /// The cut of the first entry, if any.
    var firstCut: Int? {
        isEmpty ? nil : lock.withLock { entries.first?.cut }
    }

    /// Removes the first entry and returns its item; there must be one.
    func removeFirst() -> Element {
        let item = lock.withLock { entries.removeFirst().item }
        pending.wrappingDecrement(ordering: .releasing)
        return item
    }

    /// The consumer has finished the next item that has a ticket.
    func complete() {
        done.lock()
        completedTicket += 1
        done.broadcast()
        done.unlock()
    }

    // MARK: Waiting

    /// Waits until the consumer has finished the item with `ticket`.
    func waitUntilDone(_ ticket: Int) {
        done.lock()
        while completedTicket < ticket { done.wait() }
        done.unlock()
    }
}
