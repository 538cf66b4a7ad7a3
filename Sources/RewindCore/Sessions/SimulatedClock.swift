import Foundation

/// A clock that moves only when told to, so scripted sessions carry the same times on every run.
public final class SimulatedClock: Sendable {
    /// The moment the clock started at.
    public let start: Date
    private let elapsed = LockedValue(Duration.zero)

    /// Creates a clock that reads `start` until it is advanced.
    public init(start: Date) {
        self.start = start
    }

    /// The time since the clock started.
    public var elapsedTime: Duration { elapsed.withLock { $0 } }

    /// The current simulated time.
    public var now: Date {
        let components = elapsedTime.components
        return start.addingTimeInterval(
            Double(components.seconds) + Double(components.attoseconds) * 1e-18
        )
    }

    /// Moves the clock forward.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a simulated clock only moves forward")
        elapsed.withLock { $0 += duration }
    }
}
