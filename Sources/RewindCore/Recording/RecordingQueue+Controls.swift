import Atomics

/// Control items: a session's start, a flush, the end. They may come from any thread while the
/// producer pushes without a lock, so they wait beside the ring, each with its cut.
extension RecordingQueue {
    /// Queues a control item after every step pushed so far; returns a ticket for
    /// ``waitUntilDone(_:)``. Any thread.
    ///
    /// Steps dropped and not yet marked are marked first, so a flush or close never hides them.
    /// A step pushed at that very moment may not hear of the gap: the writer keyframes it
    /// anyway (it follows a gap), and a replicating recorder, which then has no state for it,
    /// marks it as lost too.
    ///
    /// - Parameter closing: whether pushes after this item are ignored.
    func pushControl(_ item: Element, closing: Bool = false) -> Int {
        let ticket: Int = controlLock.withLock {
            // After close, the last ticket is the finish: waiting for it is all that is left.
            if isClosed { return issuedTicket }
            dropLock.withLock {
                var notice = notices.load(ordering: .relaxed)
                if closing {
                    isClosed = true
                    notice |= Notice.closed
                }
                if let dropped = droppedSteps {
                    controls.append((makeGap(dropped), published.load(ordering: .acquiring)))
                    pendingControls.wrappingIncrement(ordering: .releasing)
                    droppedSteps = nil
                    notice = notice & ~Notice.dropped | Notice.gapMarked
                }
                notices.store(notice, ordering: .relaxed)
            }
            controls.append((item, published.load(ordering: .acquiring)))
            pendingControls.wrappingIncrement(ordering: .releasing)
            issuedTicket += 1
            return issuedTicket
        }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        let state = writerState.load(ordering: .sequentiallyConsistent)
        if state != WriterState.running { wakeWriter(from: state) }
        return ticket
    }

    /// Waits until the writer has finished the control item with `ticket`.
    func waitUntilDone(_ ticket: Int) {
        condition.lock()
        while completedTicket < ticket { condition.wait() }
        condition.unlock()
    }

    /// The writer reports that it has finished the next control item.
    func completeTicket() {
        condition.lock()
        completedTicket += 1
        condition.broadcast()
        condition.unlock()
    }
}
