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
