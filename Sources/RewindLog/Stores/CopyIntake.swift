import Foundation

/// The stages of taking a copy of a session into a store, in their one order, as a state
/// machine the store drives (swift-nio's way with a protocol's steps): the store asks ``next()``
/// what to do, does it on its own rows, in its own transaction, and answers; the rules of what
/// is taken are ``ReceivePlan``'s. A log drives it synchronously inside a SQLite transaction,
/// a team store with `await` on a PostgreSQL connection: one procedure for both.
///
/// ```swift
/// var intake = CopyIntake(copy)
/// var step = try intake.next()
/// while true {
///     switch step {
///     case .findSession: step = found.map { intake.found(…) } ?? intake.notFound()
///     …
///     case let .write(write): /* its rows */; step = try intake.next()
///     case let .done(received): return received
///     }
/// }
/// ```
package struct CopyIntake: Sendable {
    /// What the store does next.
    package enum Step: Sendable {
        /// Find the session by the copy's id: answer ``found(number:app:storedThrough:ended:)``
        /// or ``notFound()``.
        case findSession
        /// Write the header of the session, new to the store: answer ``headerWritten(number:)``.
        /// A refusal later rolls it back with the rest of the transaction.
        case writeHeader(StoredSessionCopy)
        /// Read the session's gap markers: answer ``read(gaps:)``.
        case readGaps
        /// Read the last step and checksum of each held block from this first step on:
        /// answer ``read(blocks:)``.
        case readBlocks(fromStep: Int)
        /// Read the stored bytes of the held block of this first step: answer ``read(block:)``.
        case readBlock(firstStep: Int)
        /// Carry out one write of the plan, in the order given; then ask again.
        case write(ReceivePlan.Write)
        /// Every write is carried out: bring what the store keeps beside its rows (a team
        /// store's counts of the session) up to the plan. Only when the plan wrote something.
        case finish(ReceivePlan)
        /// Taken: the answer to give. The machine is spent.
        case done(ReceivedBlocks)
    }

    /// The answer the machine waits for.
    private enum Awaiting: Sendable, Equatable {
        case nothing, session, header, gaps, blocks, block
    }

    private let copy: StoredSessionCopy
    private var awaiting = Awaiting.nothing
    private var held = ReceivePlan.Held.new
    private var created = false
    /// The number the store gives the session, which a log's block checksums cover (a team
    /// store numbers none: 0).
    private var number = 0
    private var plan: ReceivePlan?
    /// The first step of the held block whose bytes were asked for.
    private var comparing: Int?
    private var nextWrite = 0
    private var finished = false

    /// The stages of taking `copy`.
    package init(_ copy: StoredSessionCopy) {
        self.copy = copy
    }

    /// What the store does next, once it has answered the step before.
    ///
    /// - Throws: ``UploadError``, when ``ReceivePlan`` refuses the copy: nothing of it is to
    ///   be kept (the store rolls its transaction back).
    package mutating func next() throws(UploadError) -> Step {
        precondition(awaiting == .nothing, "CopyIntake: the store did not answer \(awaiting)")
        guard let plan else {
            precondition(!finished, "CopyIntake: asked again once done")
            awaiting = .session
            return .findSession
        }
        if nextWrite < plan.writes.count {
            nextWrite += 1
            return .write(plan.writes[nextWrite - 1])
        }
        if !plan.writes.isEmpty, !finished {
            finished = true
            return .finish(plan)
        }
        self.plan = nil
        finished = true
        return .done(plan.received(created: created))
    }

    /// The store holds the session, as `number`, recorded by `app`, through step
    /// `storedThrough` (0: its header and no block), `ended` or not.
    package mutating func found(number: Int, app: String?, storedThrough: Int, ended: Bool) -> Step {
        answer(.session)
        self.number = number
        (held.app, held.storedThrough, held.ended) = (app, storedThrough, ended)
        awaiting = .gaps
        return .readGaps
    }

    /// The store does not hold the session.
    package mutating func notFound() -> Step {
        answer(.session)
        created = true
        awaiting = .header
        return .writeHeader(copy.newSessionHeader)
    }

    /// The header is written; the store numbers the session `number`.
    package mutating func headerWritten(number: Int) throws(UploadError) -> Step {
        answer(.header)
        self.number = number
        return try planned()
    }

    /// The session's gap markers, in order.
    package mutating func read(gaps: [LoggedGap]) throws(UploadError) -> Step {
        answer(.gaps)
        held.gaps = gaps
        guard let first = ReceivePlan.Held.firstStepToRead(of: copy, storedThrough: held.storedThrough) else { return try planned() }
        awaiting = .blocks
        return .readBlocks(fromStep: first)
    }

    /// The held blocks asked for, by first step.
    package mutating func read(blocks: [Int: (lastStep: Int, checksum: Int64)]) throws(UploadError) -> Step {
        answer(.blocks)
        held.blocks = blocks
        guard let compared = held.blockToCompare(with: copy) else { return try planned() }
        awaiting = .block
        comparing = compared
        return .readBlock(firstStep: compared)
    }

    /// The stored bytes of the block asked for; nil when the store no longer finds it (the
    /// plan then refuses what needed them).
    package mutating func read(block bytes: BlockAdmission.StoredBytes?) throws(UploadError) -> Step {
        answer(.block)
        if let bytes, let comparing { held.compared = (comparing, bytes) }
        return try planned()
    }

    private mutating func planned() throws(UploadError) -> Step {
        let number = number
        plan = try ReceivePlan(copy, held: held, created: created) { $0.checksum(session: number) }
        return try next()
    }

    /// Takes the answer the machine waits for. An answer out of turn is the store's bug, not
    /// the copy's: found at once by any test of the store.
    private mutating func answer(_ expected: Awaiting) {
        precondition(awaiting == expected, "CopyIntake: answered \(expected) while waiting for \(awaiting)")
        awaiting = .nothing
    }
}
