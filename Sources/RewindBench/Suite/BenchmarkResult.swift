/// All figures of one run, in order.
public struct BenchmarkResult: Sendable {
    public var figures: [BenchmarkFigure] = []
    /// What this run could not measure, and why: figures left out rather than made up.
    public var notes: [String] = []

    public subscript(key: String) -> Double? {
        figures.first { $0.key == key }?.value
    }

    mutating func add(
        _ key: String, _ value: Double, _ label: String,
        baseline: String? = nil, atMost: Double? = nil, atLeast: Double? = nil
    ) {
        let target = atMost.map { "<= \(Self.format($0))" } ?? atLeast.map { ">= \(Self.format($0))" }
        let meets = atMost.map { value <= $0 } ?? atLeast.map { value >= $0 }
        figures.append(BenchmarkFigure(key: key, value: value, label: label, baseline: baseline, target: target, meetsTarget: meets))
    }

    static func format(_ value: Double) -> String {
        if value >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4f", value)
    }
}
