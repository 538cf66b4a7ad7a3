import Foundation

/// Runs `body` on a thread of its own, which may block (waiting for room, for a ticket)
/// without starving the cooperative pool; `wait()` joins it.
struct OwnThread {
    private let done = DispatchGroup()

    init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        done.enter()
        Thread {
            body()
            done.leave()
        }.start()
    }

    func wait() {
        done.wait()
    }
}

/// Spins, yielding the processor, until `condition` holds: for a thread that must first reach
/// a wait before the test goes on (there is no event to wait for, and no time is guessed).
func spin(until condition: () -> Bool) {
    while !condition() { sched_yield() }
}
