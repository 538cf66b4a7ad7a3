/// The consumer's side (the recorder's encoder thread): it moves steps out of the ring, and
/// control items in their turn.
extension RecordingQueue {
    /// Most items one ``takeAll(into:)`` moves: batches stop growing early, so that a consumer
    /// that falls behind does not copy ever larger batches into ever larger buffers (a twentieth
    /// of recording a login step, counted over its first thousands of steps).
    static var batchLimit: Int { 1_024 }

    /// Whether nothing is waiting: no step published since the last ``takeAll(into:)`` and no
    /// control item; only the consumer asks.
    var isDrained: Bool {
        ring.isDrained && controls.isEmpty
    }

    /// Moves what is queued into `batch`, in order: steps up to ``batchLimit`` of them, and a
    /// control item once every step before its cut is in; waits while there is nothing. Only
    /// the consumer calls it.
    ///
    /// The consumer hands back its emptied batch, capacity kept, so taking rarely allocates.
    func takeAll(into batch: inout [Element]) {
        batch.removeAll(keepingCapacity: true)
        var naps = 0
        while true {
            // The end before the cut: a control item queued after this read has its cut at or
            // past the end, so no step after a cut is taken before its item.
            let end = ring.publishedCount
            let cut = controls.firstCut
            if ring.take(upTo: min(end, cut ?? end, ring.consumedCount + Self.batchLimit), into: &batch) {
                sleeper.madeRoom()
            }
            if let cut, cut <= ring.consumedCount {
                batch.append(controls.removeFirst())
            }
            if !batch.isEmpty { return }
            if sleeper.rest(afterNaps: naps, isIdle: { ring.isDrainedInOrder && controls.isEmptyInOrder }) {
                naps += 1
            }
        }
    }
}
