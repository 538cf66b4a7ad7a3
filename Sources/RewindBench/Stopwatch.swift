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

/// Percentiles of a set of samples.
struct Percentiles {
    let sorted: [Double]

    init(_ samples: [Double]) {
        sorted = samples.sorted()
    }

    func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

/// The median of a few repetitions.
func median(_ values: [Double]) -> Double {
    Percentiles(values).p50
}
