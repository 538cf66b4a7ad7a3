import Foundation
import RewindJSON

/// Formats a benchmark run as JSON or as a table of figures beside baselines and targets.
public enum BenchmarkReport {
    /// One JSON object, keys in the order measured.
    public static func json(_ result: BenchmarkResult) -> String {
        let members = result.figures.map { figure in
            "  \"\(figure.key)\": \(JSONValue.double((figure.value * 1_000).rounded() / 1_000).canonicalString)"
        }
        return "{\n" + members.joined(separator: ",\n") + "\n}"
    }

    /// A line per figure: value, its baseline and the ratio, the target and whether it is met.
    public static func table(_ result: BenchmarkResult) -> [String] {
        let rows: [[String]] = result.figures.map { figure in
            var baseline = ""
            if let key = figure.baseline, let other = result[key], other > 0 {
                baseline = "\(BenchmarkResult.format(other)) (×\(String(format: "%.2f", figure.value / other)))"
            }
            let verdict = figure.meetsTarget.map { $0 ? "ok" : "MISSED" } ?? ""
            return [figure.label, BenchmarkResult.format(figure.value), baseline, figure.target ?? "", verdict]
        }
        let header = ["figure", "value", "baseline (ratio)", "target", ""]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 1 ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
    }
}
