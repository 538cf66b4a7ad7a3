/// One figure of a benchmark run, beside its baseline and target.
public struct BenchmarkFigure: Sendable {
    /// The key in `rewind bench --json`, like `dispatch_recording_ns`.
    public let key: String
    public let value: Double
    /// What it means, in a few words.
    public let label: String
    /// The key of the figure it is compared with, if any.
    public let baseline: String?
    /// The target of DESIGN section 7, in words, like `<= 150`.
    public let target: String?
    /// Whether the value meets the target; nil when there is none.
    public let meetsTarget: Bool?
}
