import Foundation
import RewindCore

/// Where uploads of sessions go, the write side of the stores ``SessionStore`` reads: a log on
/// this machine (``LogFileStore``), a team's store (`TeamStore`), or a collector elsewhere
/// (`CollectorClient`). A collector stores into one of the first two; `rewind push` sends to
/// any. The stores take an upload by the rules of ``ReceivePlan``.
///
/// A block is known by its session and first step and covered by its checksum, so sending
/// it again adds nothing: a retry after a lost answer is harmless.
public protocol SessionDestination: Sendable {
    /// How messages name it: a path, or a URL without its secrets.
    var name: String { get }

    /// Stores what `upload` holds that the destination lacks: the session's header when it
    /// is new, then each block after the last one held (a block held already is counted as a
    /// duplicate when its checksum agrees, and refused as a conflict when not), then its end.
    /// In one transaction: what it throws leaves nothing of `upload` stored.
    func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks

    /// The last step held of the session `id` (0: its header and no block), and whether it has
    /// ended; nil when the destination does not hold it.
    func progress(of id: UUID) async throws -> ReceivedBlocks?

    /// Keeps `verdict` in the tags of session `id`, in place of an earlier one; false when the
    /// destination does not hold the session. A collector writes through its destination, the
    /// one writer of its log.
    func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool

    /// Lets go of what it holds open.
    func close() async
}
