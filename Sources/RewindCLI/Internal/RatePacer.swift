import Foundation
import RewindCore

/// Holds a session to a steady number of steps per second, as a middleware: after each step
/// it sleeps until that step is due on a monotonic clock.
///
/// It never busy-waits: a step that is due, or late, goes on at once, and a step that is
/// early sleeps the whole difference in one call. At 10,000 steps per second that means a
/// sleep of a millisecond or so every few steps, since a step takes far less than its share.
@MainActor
final class RatePacer<State, Action: Sendable>: StoreMiddleware {
    /// Nanoseconds between two steps.
    private let interval: Double
    /// The monotonic time of step 0.
    private var start: UInt64?
    /// Sleeps shorter than this are skipped: the next step catches up, and the session never
    /// pays a system call for a few microseconds.
    private static var minimumSleep: UInt64 { 200_000 }

    /// Paces at `rate` steps per second (more than 0).
    init(rate: Double) {
        interval = 1_000_000_000 / rate
    }

    func storeDidStart(initialState: State) {
        start = DispatchTime.now().uptimeNanoseconds
    }

    func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let start else {
            start = now
            return
        }
        let due = start + UInt64(interval * Double(context.step))
        guard due > now, due - now >= Self.minimumSleep else { return }
        usleep(useconds_t((due - now) / 1_000))
    }
}
