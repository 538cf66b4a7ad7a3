import Atomics
import Dispatch
import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// Checks a session's recorded steps against a flow's reducer in chunks, on every core: the
/// quick answer for the common case, a recording whose every state replays.
///
/// Each chunk starts from the recorded state before its first step. As long as every earlier
/// step matched, that is the state the replay itself would have reached (a state must read
/// back from its encoding, as for any replay from a recording). A chunk stops at its first
/// mismatch or error, and then the replay runs the session again, in order, to tell a
/// divergence from nondeterminism or a secret the placeholder does not keep.
struct ChunkedVerification {
    let path: String
    let session: SessionSummary
    let flow: ReplayFlow
    /// Steps per chunk: each chunk rebuilds its starting state once.
    var chunkSize = 4_096
    var workers = ProcessInfo.processInfo.activeProcessorCount

    /// Whether this check applies: a recording in the flow's schema, without gaps (but the front
    /// a retention trimmed, from which it starts).
    static func applies(to session: SessionSummary, flow: ReplayFlow) -> Bool {
        session.schemaVersion == flow.schemaVersion && session.eventCount == session.lastStep - (session.notKept?.count ?? 0)
            && session.lastStep > session.firstKeptState
    }

    /// The number of steps whose action or state holds a redacted secret, when every step's
    /// replayed state matches its recorded digest; nil when one does not or cannot be replayed.
    func redactedStepsIfEveryStepMatches() -> Int? {
        let start = session.firstKeptState
        let chunks = (session.lastStep - start + chunkSize - 1) / chunkSize
        let next = ManagedAtomic(0)
        let failed = ManagedAtomic(false)
        let redacted = ManagedAtomic(0)
        let allLinks = LockedValue(CauseLinks())
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, chunks))) { _ in
            var links = CauseLinks()
            defer { allLinks.withLock { $0.merge(links) } }
            do {
                let reader = try LogReader(path: path)
                var stepper = flow.stepper(digestRule: session.digestRule)
                while !failed.load(ordering: .relaxed) {
                    let chunk = next.loadThenWrappingIncrement(ordering: .relaxed)
                    guard chunk < chunks else { return }
                    let first = start + chunk * chunkSize + 1
                    guard
                        let count = try verify(
                            first...min(session.lastStep, first + chunkSize - 1), with: &stepper, reader: reader, stop: failed, links: &links)
                    else {
                        failed.store(true, ordering: .relaxed)
                        return
                    }
                    redacted.wrappingIncrement(by: count, ordering: .relaxed)
                }
            } catch {
                // The replay in order meets the same error and reports it.
                failed.store(true, ordering: .relaxed)
            }
        }
        // A recorded action whose cause (a step of this replay) now starts no work.
        let unmet = allLinks.withLock { links in links.caused.contains { cause in cause > start && !links.working.contains(cause) } }
        return failed.load(ordering: .relaxed) || unmet ? nil : redacted.load(ordering: .relaxed)
    }

    /// The cause links of a session recorded before format 5, which says nothing of the work
    /// its steps started: each cause a recorded action names must be a step whose replay asks
    /// for work.
    struct CauseLinks {
        var caused: Set<Int> = []
        var working: Set<Int> = []

        mutating func merge(_ other: CauseLinks) {
            caused.formUnion(other.caused)
            working.formUnion(other.working)
        }
    }

    /// Replays `steps`; the number of them holding a secret, or nil at the first mismatch or
    /// when another chunk failed first. Adds to `links` the causes the recorded actions name
    /// and the replayed steps that asked for work, for a session before format 5.
    private func verify(
        _ steps: ClosedRange<Int>, with stepper: inout any ReplayStepper, reader: LogReader, stop: ManagedAtomic<Bool>,
        links: inout CauseLinks
    ) throws -> Int? {
        try stepper.reset(to: reader.state(of: session, at: steps.lowerBound - 1))
        let mayHoldSecrets = !session.redactedPaths.isEmpty
        // The recorder lists an action's redacted fields under `action`: without one, no
        // action of the session holds a secret.
        let actionsMayHoldSecrets = session.redactedPaths.contains { $0.hasPrefix("action") }
        let secretPaths = fixedRedactedPaths
        var redacted = 0
        var matched = 0
        try reader.actionDigests(of: session, steps: steps) { step, action, digest, recorded in
            let replayed = try stepper.stepDigest(action)
            guard replayed.digest == digest else { return false }
            // A step that asks for other work is a mismatch too, which the replay in order
            // names; in a session before format 5, cause links are checked once all chunks ran.
            // Nearly every step recorded nothing and asks for nothing; most others ask for
            // what they recorded, written the same way: nothing to parse or encode.
            let asks = stepper.lastStepSendsActions
            if !recorded.isEmpty || asks,
                !(recorded.recordsEffects && stepper.lastStepBehaviourIsWritten(asOutputs: recorded.outputs, effects: recorded.effects)),
                let behaviour = try stepper.lastStepBehaviour()
            {
                let recorded = try recorded.parsed()
                guard BehaviourChange.changes(recorded: recorded, replayed: behaviour).isEmpty else { return false }
                if recorded.effects == nil, BehaviourChange.asksForAnything(behaviour) { links.working.insert(step) }
            }
            if !recorded.recordsEffects, let cause = recorded.cause { links.caused.insert(cause) }
            if mayHoldSecrets
                && ((actionsMayHoldSecrets && ReplayRun.holdsRedaction(action))
                    || (replayed.state.map { holdsRedaction($0, lookingFirstAt: secretPaths) } ?? stepper.lastStateHoldsPlaceholder()))
            {
                redacted += 1
            }
            matched += 1
            return !stop.load(ordering: .relaxed)
        }
        return matched == steps.count ? redacted : nil
    }

    /// The session's redacted fields outside arrays, where a state holds its secrets.
    private var fixedRedactedPaths: [JSONPath] {
        session.redactedPaths.filter { !$0.contains("[*]") }.compactMap { try? JSONPath(parsing: $0) }
    }

    /// Whether `state` holds a placeholder: looked up first at the session's redacted fields,
    /// which finds it at once in a state that always holds its secret, and else searched for.
    private func holdsRedaction(_ state: JSONValue, lookingFirstAt paths: [JSONPath]) -> Bool {
        paths.contains { path in
            guard case let .object(object)? = state[path] else { return false }
            return object.count == 1 && object[Secret.placeholderKey] != nil
        } || ReplayRun.holdsRedaction(state)
    }
}
