import CStepTicks
import Foundation

/// Turns the stamps of a recorder's steps into times, on its encoder thread.
///
/// Each batch reads the counter and the wall clock together (``refresh()``), and a step's time
/// is that wall-clock time less the step's age in ticks: the wall clock's adjustments show at
/// the next batch, and the rate's error counts only over a step's time in the queue (1e-5 of
/// it, after the 2 ms measurement).
@usableFromInline
struct StepTimes {
    let usesCounter: Bool
    /// Whether stamps are times a session's own clock gave, as their bit patterns.
    let isCustom: Bool
    /// The counter and the monotonic clock when the recorder started: the rate is measured
    /// again over the whole interval once it is long.
    private let origin: (ticks: UInt64, monotonic: UInt64)
    private var nanosecondsPerTick: Double
    /// A stamp and the wall-clock nanoseconds since 1970 read beside it.
    private var anchor: (ticks: UInt64, clock: Int64)

    init(usesCounter: Bool, isCustom: Bool) {
        self.usesCounter = usesCounter
        self.isCustom = isCustom
        nanosecondsPerTick = usesCounter && !isCustom ? StepClock.counterRate : 1
        let start = StepClock.reading(counter: usesCounter) { rewind_step_monotonic_nanoseconds() }
        origin = (start.ticks, start.clock)
        anchor = StepClock.reading(counter: usesCounter) { rewind_step_wall_nanoseconds() }
    }

    /// Reads the stamp of now and the wall clock, before a batch's steps are converted.
    mutating func refresh() {
        guard !isCustom else { return }
        anchor = StepClock.reading(counter: usesCounter) { rewind_step_wall_nanoseconds() }
        guard usesCounter else { return }
        let now = StepClock.reading(counter: true) { rewind_step_monotonic_nanoseconds() }
        let elapsed = now.clock &- origin.monotonic
        if elapsed > 1_000_000_000 {
            nanosecondsPerTick = Double(elapsed) / Double(max(1, now.ticks &- origin.ticks))
        }
    }

    /// The time of a step stamped `stamp` (before the last ``refresh()``).
    func date(of stamp: UInt64) -> Date {
        if isCustom { return Date(timeIntervalSince1970: Double(bitPattern: stamp)) }
        // Signed: the counters of two cores may differ by a few ticks.
        let age = Double(Int64(bitPattern: anchor.ticks &- stamp)) * nanosecondsPerTick
        let nanoseconds = anchor.clock &- Int64(age.rounded())
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Date(timeIntervalSince1970: Double(seconds) + Double(fraction) * 1e-9)
    }
}
