/// Control items: a session's start, a flush, the end. They wait beside the ring, in the
/// ``ControlLane``.
extension RecordingQueue {
    /// Queues a control item after every step pushed so far; returns a ticket for
    /// ``waitUntilDone(_:)``. Any thread.
    ///
    /// Steps dropped and not yet marked are marked first, so a flush or close never hides them.
    /// A step pushed at that very moment may not hear of the gap: the encoder keyframes it
    /// anyway (it follows a gap), and a replicating recorder, which then has no state for it,
    /// marks it as lost too.
    ///
    /// - Parameter closing: whether pushes after this item are ignored.
    func pushControl(_ item: Element, closing: Bool = false) -> Int {
        // The drop lock is held until the marker is in the lane: the next step, which takes the
        // lock to hear of the gap, is then published after the consumer can see the marker, so
        // it cannot be taken before it.
        let ticket = dropLock.withLock {
            controls.enqueue(item, closing: closing, after: { markDropped(closing: closing) }, cut: { ring.publishedCount })
        }
        sleeper.wakeInOrder()
        return ticket
    }

    /// Under the drop lock and the control lane's: closes the queue to pushes if `closing`, and
    /// takes the steps dropped and not yet marked, returning their gap marker with its cut.
    private func markDropped(closing: Bool) -> (item: Element, cut: Int)? {
        var notice = notices.load(ordering: .relaxed)
        if closing { notice |= Notice.closed }
        var marker: (item: Element, cut: Int)?
        if let dropped = droppedSteps {
            marker = (makeGap(dropped), ring.publishedCount)
            droppedSteps = nil
            notice = notice & ~Notice.dropped | Notice.gapMarked
        }
        notices.store(notice, ordering: .relaxed)
        return marker
    }

    /// Waits until the consumer has finished the control item with `ticket`.
    func waitUntilDone(_ ticket: Int) {
        controls.waitUntilDone(ticket)
    }

    /// The consumer reports that it has finished the next control item that has a ticket.
    func completeTicket() {
        controls.complete()
    }
}
