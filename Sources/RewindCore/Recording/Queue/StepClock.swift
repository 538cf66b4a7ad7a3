import CStepTicks
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stamps each recorded step on the dispatch path; ``StepTimes`` turns the stamps into times
/// on the recorder's own thread.
///
/// A stamp is a read of the processor's counter where the system keeps time with it (`rdtsc`,
/// 9 ns here, against 20 for `clock_gettime`), else the monotonic clock in nanoseconds; with a
/// session's own clock, the time it gives.
@usableFromInline
enum StepClock {
    /// Whether stamps are the processor's counter; worked out once a process.
    @usableFromInline static let usesCounter = rewind_step_counter_is_trusted() != 0

    /// A stamp of now: the counter, or the monotonic clock in nanoseconds.
    @inlinable
    static func ticks(counter: Bool) -> UInt64 {
        counter ? rewind_step_counter() : rewind_step_monotonic_nanoseconds()
    }

    /// The stamp of `time`, given by a session's own clock: its bits.
    @inlinable
    static func stamp(of time: Date) -> UInt64 {
        time.timeIntervalSince1970.bitPattern
    }

    /// Nanoseconds a tick of the counter lasts, measured once a process over 2 ms against the
    /// monotonic clock (the first recorder's thread waits for it); each recorder measures it
    /// again over its own life (``StepTimes/refresh()``).
    static let counterRate: Double = {
        let start = reading(counter: true) { rewind_step_monotonic_nanoseconds() }
        usleep(2_000)
        let end = reading(counter: true) { rewind_step_monotonic_nanoseconds() }
        return Double(end.clock &- start.clock) / Double(max(1, end.ticks &- start.ticks))
    }()

    /// A stamp and a clock's nanoseconds read together: the clock is read on both sides of the
    /// stamp, until the two reads come within 2 µs (a thread preempted between them would
    /// skew a rate or a time by as long as it waited), and their middle is taken.
    static func reading<Clock: FixedWidthInteger>(counter: Bool, _ clock: () -> Clock) -> (ticks: UInt64, clock: Clock) {
        var best: (ticks: UInt64, clock: Clock, spread: Clock)?
        for _ in 0..<16 {
            let before = clock()
            let ticks = self.ticks(counter: counter)
            let after = clock()
            let spread = after &- before
            if best == nil || spread < best!.spread { best = (ticks, before &+ spread / 2, spread) }
            if spread < 2_000 { break }
        }
        return (best!.ticks, best!.clock)
    }
}
