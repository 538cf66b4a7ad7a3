#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanosecond timestamps from the monotonic clock, and per-operation samples.
enum Stopwatch {
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }

    /// The cost of reading the clock twice, subtracted from per-operation samples.
    static let overhead: Double = {
        var samples: [UInt64] = []
        samples.reserveCapacity(10_001)
        for _ in 0...10_000 {
            let start = now()
            samples.append(now() - start)
        }
        return Percentiles(samples.map(Double.init)).p50
    }()
}
