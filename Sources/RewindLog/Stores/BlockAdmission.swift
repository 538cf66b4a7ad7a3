/// What a store does with a block of an upload, given what it holds of the session: the one
/// rule of ``SessionDestination/receive(_:)``, which every store applies.
package enum BlockAdmission: Sendable, Equatable {
    /// The store holds it already, under the same checksum: a retry's. Counted, not stored.
    case duplicate
    /// It follows what the store holds: stored.
    case new
    /// It is the last block the store holds, sent again with steps added since (a session
    /// uploaded while it is recorded: a recorder writes its last block again at each commit).
    /// Stored in place of the held one once ``checkGrowth(of:size:to:)`` finds that it starts
    /// with every record held.
    case grows
    /// The store holds it grown since: the upload is a copy taken while the session was
    /// recorded, sent after a later one. Counted as held, not stored, once
    /// ``checkPrefix(_:of:steps:)`` finds its records at the start of the held block's.
    case heldGrown

    /// Refuses an upload to a session the store holds as another app's (`held`, nil: a session
    /// recorded with no app): a collector sets each upload's app to its token's, so that an
    /// app's token, which anyone can take out of the app, ends or extends no other app's
    /// session.
    package static func checkApp(of upload: StoredSessionCopy, held: String?) throws(UploadError) {
        guard upload.metadata.app == held else {
            throw UploadError(.otherApp, "the store holds session \(upload.id.uuidString) as another app's")
        }
    }

    /// The admission of `block` when the store holds its session through step `stored` (gap
    /// markers `gaps`), and holds `held` (last step, checksum) under the block's first step.
    ///
    /// - Parameter checksum: the block's checksum as the store keeps it (of the session
    ///   number it gives the session), compared with `held`'s.
    package static func of(
        _ block: StoredSessionCopy.Block, checksum: Int64, storedThrough stored: Int, gaps: [LoggedGap], held: (lastStep: Int, checksum: Int64)?
    ) throws(UploadError) -> BlockAdmission {
        if block.firstStep <= stored {
            if let held, held.lastStep == stored, block.lastStep > held.lastStep { return .grows }
            if let held, block.lastStep < held.lastStep { return .heldGrown }
            guard let held, held.lastStep == block.lastStep, held.checksum == checksum else {
                throw UploadError(
                    .conflict, "the store holds other steps under the block of steps \(block.firstStep) through \(block.lastStep)", storedThrough: stored)
            }
            return .duplicate
        }
        let expected = StoredSessionCopy.step(after: stored, gaps: gaps)
        guard block.firstStep == expected else {
            throw UploadError(
                .outOfOrder, "the block of steps \(block.firstStep) through \(block.lastStep) does not follow step \(stored); send from step \(expected)",
                storedThrough: stored)
        }
        return .new
    }

    /// A block's stored bytes and the size they inflate to.
    package typealias StoredBytes = (bytes: [UInt8], size: Int)

    /// Checks that `longer` holds the records of `shorter` unchanged, and more after them: its
    /// inflated bytes are `shorter`'s up to their closing `]`, then `,` and the new records.
    /// Else an upload would change steps a store acknowledged (`.grows`), or holds steps that
    /// disagree with the store's (`.heldGrown`): refused as a conflict naming `steps`, the
    /// sent block's.
    package static func checkPrefix(_ shorter: StoredBytes, of longer: StoredBytes, steps: ClosedRange<Int>) throws(UploadError) {
        let inflater = BlockInflater()
        // (A closure with a typed throw here crashes Swift 6.3.1's IR generation.)
        func inflated(_ data: StoredBytes) -> [UInt8]? {
            data.bytes.withUnsafeBytes { bytes -> [UInt8]? in
                do {
                    try inflater.inflate(bytes, size: data.size)
                    return inflater.bytes
                } catch {
                    return nil
                }
            }
        }
        guard let before = inflated(shorter), let after = inflated(longer) else {
            throw UploadError(.conflict, "the block of steps \(steps.lowerBound) through \(steps.upperBound) cannot be read against the one held")
        }
        guard before.count > 1, after.count > before.count, after[before.count - 1] == UInt8(ascii: ","),
            after.starts(with: before.dropLast())
        else {
            throw UploadError(
                .conflict, "the block of steps \(steps.lowerBound) through \(steps.upperBound) disagrees with the steps the store holds under it")
        }
    }

    /// The gap markers of an upload that a store adds, when it holds the session through step
    /// `stored` with the markers `held`: every part of a sent marker after `stored` that it
    /// does not hold yet.
    ///
    /// A marker is cut at `stored` rather than skipped so that a flight recorder's front
    /// (`not kept`, always from step 1) can move past what the store holds: a device that
    /// trimmed steps 5,001-13,999 before its next upload sends them as `1-13,999 not kept`, and
    /// a store that holds through 5,000 adds `5,001-13,999 not kept` (docs/collector.md).
    package static func gapsToStore(_ sent: [LoggedGap], storedThrough stored: Int, held: [LoggedGap]) -> [LoggedGap] {
        var added: [LoggedGap] = []
        for gap in sent where gap.steps.upperBound > stored {
            let part = LoggedGap(steps: max(gap.steps.lowerBound, stored + 1)...gap.steps.upperBound, reason: gap.reason)
            guard !(held + added).contains(where: { $0.steps.lowerBound == part.steps.lowerBound }) else { continue }
            added.append(part)
        }
        return added
    }
}
