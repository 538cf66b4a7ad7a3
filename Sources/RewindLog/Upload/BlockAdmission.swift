/// What a store does with a block of an upload, given what it holds of the session: the one
/// rule of ``SessionDestination/receive(_:)``, which every store applies.
public enum BlockAdmission: Sendable, Equatable {
    /// The store holds it already, under the same checksum: a retry's. Counted, not stored.
    case duplicate
    /// It follows what the store holds: stored.
    case new

    /// The admission of `block` when the store holds its session through step `stored` (gap
    /// markers `gaps`), and holds `held` (last step, checksum) under the block's first step.
    ///
    /// - Parameter checksum: the block's checksum as the store keeps it (of the session
    ///   number it gives the session), compared with `held`'s.
    public static func of(
        _ block: StoredSessionCopy.Block, checksum: Int64, storedThrough stored: Int, gaps: [LoggedGap], held: (lastStep: Int, checksum: Int64)?
    ) throws(UploadError) -> BlockAdmission {
        if block.firstStep <= stored {
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
}
