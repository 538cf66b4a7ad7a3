import Foundation
import RewindLog

/// Ships the sessions of a log to a collector: what an app runs (at launch, when a session
/// ends, on a timer) and what `rewind push --to https://…` runs.
///
/// It asks the collector how far it holds each session, then sends the blocks after that, a
/// batch at a time, read from the log as it goes: never more than a batch in memory. Blocks
/// the recorder has committed are the ones sent; until the collector acknowledges them they
/// stay in the log, which is the buffer (offline, nothing is lost; a retry adds nothing twice).
public struct Uploader: Sendable {
    /// What one session's upload did.
    public struct Outcome: Sendable, Equatable {
        public var session: UUID
        /// The session as the log numbers and names it (`#3 (login-happy)`).
        public var label: String
        /// Blocks the collector had not had.
        public var added: Int
        /// Steps the collector had not had.
        public var addedSteps = 0
        /// Whether the collector held nothing of the session before.
        public var created = false
        /// The last step the collector holds now.
        public var storedThrough: Int
        /// Whether the collector held the session as it is before the upload.
        public var alreadyThere: Bool
        /// Steps the session has.
        public var steps: Int
        /// Each batch the collector acknowledged, in order.
        public var batches: [Batch] = []
    }

    /// A batch the collector acknowledged.
    public struct Batch: Sendable, Equatable {
        /// The last step it held of the session then.
        public var storedThrough: Int
        /// How long the request took, its retries included.
        public var seconds: Double
    }

    public let log: String
    public let destination: any SessionDestination
    /// A batch: at most this many bytes of block data (half a collector's default body
    /// limit; a 1,000,000-step login session goes in 6 requests)…
    public var batchBytes = 4 << 20
    /// …and this many blocks.
    public var batchBlocks = 1_024
    /// Whether the blocks the collector holds are sent too, for it to compare with its own: a
    /// session that disagrees with what it holds is then refused (``UploadError/Kind/conflict``)
    /// where, off, a session the collector holds through its last step is taken as there.
    /// What `rewind push` does; an app's uploader, whose sessions no one else writes, leaves
    /// it off and sends only what is new.
    public var checksHeld = false

    public init(log: String, to destination: any SessionDestination) {
        self.log = log
        self.destination = destination
    }

    /// Uploads every session of the log the collector does not hold whole.
    public func upload() async throws -> [Outcome] {
        let reader = try LogReader(path: log)
        var outcomes: [Outcome] = []
        for session in try reader.sessions() {
            outcomes.append(try await upload(session, from: reader))
        }
        return outcomes
    }

    /// Uploads what the collector lacks of `session`.
    public func upload(_ session: SessionSummary, from reader: LogReader) async throws -> Outcome {
        guard let id = session.id else {
            throw LogError(.invalidArgument, path: log, "session \(session.label) has no identity; a writer of this rewind gives it one")
        }
        let held = try await destination.progress(of: id)
        var stored = held?.storedThrough ?? 0
        var added = 0, addedSteps = 0, changed = false
        let ended = session.endedAt != nil
        if !checksHeld, let held, held.storedThrough >= session.lastStep, held.ended == ended {
            return Outcome(session: id, label: session.label, added: 0, storedThrough: stored, alreadyThere: true, steps: session.eventCount)
        }
        var restarts = 0
        var batches: [Batch] = []
        // Where the next batch starts: after what the collector holds, or, checking what it
        // holds, after the last batch sent.
        var sent = 0
        while true {
            let batch = try reader.storedCopy(of: session, after: checksHeld ? sent : stored, maximumBytes: batchBytes, maximumBlocks: batchBlocks)
            let received: ReceivedBlocks
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                received = try await destination.receive(batch)
                batches.append(Batch(storedThrough: received.storedThrough, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
            } catch let error as UploadError where error.kind == .outOfOrder && restarts < 3 {
                // The store holds less than it said (a store restored, another uploader): go
                // on from what it holds now.
                restarts += 1
                stored = try await destination.progress(of: id)?.storedThrough ?? 0
                continue
            }
            added += received.added
            addedSteps += received.steps
            changed = changed || received.changed
            stored = received.storedThrough
            sent = batch.blocks.last?.lastStep ?? sent
            // Through the last step the log held when the upload began: one that is still being
            // recorded goes on at the next upload.
            if batch.blocks.isEmpty || (checksHeld ? sent : stored) >= session.lastStep { break }
        }
        var outcome = Outcome(
            session: id, label: session.label, added: added, storedThrough: stored, alreadyThere: held != nil && !changed,
            steps: session.eventCount, batches: batches)
        outcome.addedSteps = addedSteps
        outcome.created = held == nil
        return outcome
    }
}
