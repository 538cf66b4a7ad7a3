import Foundation
import GRDB

/// How much of each session a log keeps: the last steps, minutes or bytes of it, the flight
/// recorder of an app in users' hands (DESIGN.md section 15).
///
/// Whole blocks leave from the front of a session, in the transaction that adds new steps, and
/// the first block kept starts with a keyframe, so what is kept replays from there. The steps
/// removed become one gap from step 1, whose reason is ``RecordingGap/notKeptReason``: every
/// reader shows it ("steps 1-48,211 not kept") and starts from the first kept state.
///
/// A window never cuts into a block: steps keep at least `steps` and at most that plus one
/// block (256 steps); minutes keep every step of the last `minutes` of the session's own time
/// (the times of its steps, not the clock's) and at most a block before them; bytes keep the
/// newest blocks that fit, and at least the newest run from a keyframe.
public struct LogRetention: Sendable, Equatable {
    /// The steps to keep, at least.
    public var steps: Int?
    /// The span of the session's time to keep, in seconds, at least.
    public var seconds: Double?
    /// The blocks' stored bytes to keep, at most.
    public var bytes: Int?
    /// The whole log's size to keep under, in bytes of its pages in use: past it, whole
    /// sessions leave, oldest first, never one its writer has open.
    public var logBytes: Int?

    /// Keeps everything: the default.
    public static let everything = LogRetention()

    /// Keeps the last `count` steps of each session.
    public static func lastSteps(_ count: Int) -> LogRetention { LogRetention(steps: count) }

    /// Keeps the last `minutes` minutes of each session.
    public static func lastMinutes(_ minutes: Double) -> LogRetention { LogRetention(seconds: minutes * 60) }

    /// Keeps the newest blocks of each session that fit in `bytes` as stored (compressed).
    public static func lastBytes(_ bytes: Int) -> LogRetention { LogRetention(bytes: bytes) }

    /// Given several limits, the tightest wins: a session keeps only what each of them keeps.
    public init(steps: Int? = nil, seconds: Double? = nil, bytes: Int? = nil, logBytes: Int? = nil) {
        self.steps = steps
        self.seconds = seconds
        self.bytes = bytes
        self.logBytes = logBytes
    }

    /// Keeps the log under `bytes` (its pages in use) by removing whole sessions, oldest first.
    public static func logUnder(_ bytes: Int) -> LogRetention { LogRetention(logBytes: bytes) }

    /// Whether it keeps every step of every session.
    public var keepsEverything: Bool { keepsEverySessionWhole && logBytes == nil }

    /// Whether it keeps every step of the sessions it keeps.
    var keepsEverySessionWhole: Bool { steps == nil && seconds == nil && bytes == nil }

    /// The first step of `session` to keep: the first step of a keyframe block, or nil when
    /// nothing leaves. Reads the session's block keys, times and stored sizes, not their data.
    func firstKeptStep(of session: Int, in db: Database) throws -> Int? {
        let blocks = try Row.fetchAll(
            db, sql: "SELECT first_step, last_step, keyframe, last_time, length(data) AS stored FROM event_block WHERE session_id = ? ORDER BY first_step",
            arguments: [session]
        ).map { row in
            Block(first: row["first_step"], last: row["last_step"], keyframe: row["keyframe"], lastTime: row["last_time"], bytes: row["stored"])
        }
        return Self.firstKept(of: blocks, keeping: self)
    }

    /// A block's key, time and size, as ``firstKept(of:keeping:)`` weighs them.
    struct Block: Equatable {
        var first: Int
        var last: Int
        var keyframe: Bool
        var lastTime: Double
        var bytes: Int
    }

    /// The first step to keep of a session whose blocks are `blocks`, in step order: each limit
    /// gives the keyframe block its window starts at, and the latest of them wins; nil when
    /// that is the first block (nothing leaves).
    static func firstKept(of blocks: [Block], keeping retention: LogRetention) -> Int? {
        guard !retention.keepsEverySessionWhole, let newest = blocks.last, blocks.count > 1 else { return nil }
        /// The latest keyframe block at or before `step`: a window that keeps `step` starts there.
        func keyframe(atOrBefore step: Int) -> Int? { blocks.last { $0.keyframe && $0.first <= step }?.first }
        var starts: [Int] = []
        if let steps = retention.steps, let start = keyframe(atOrBefore: newest.last - max(1, steps) + 1) {
            starts.append(start)
        }
        if let seconds = retention.seconds {
            // The first block with a step inside the window, and so every block after it.
            let cutoff = newest.lastTime - max(0, seconds)
            if let inside = blocks.first(where: { $0.lastTime >= cutoff }), let start = keyframe(atOrBefore: inside.first) {
                starts.append(start)
            }
        }
        if let bytes = retention.bytes {
            // The newest blocks that fit, from a keyframe; at least the newest keyframe run.
            var total = 0
            var fitting = newest.first
            for block in blocks.reversed() {
                total += block.bytes
                guard total <= bytes else { break }
                fitting = block.first
            }
            if let start = blocks.first(where: { $0.keyframe && $0.first >= fitting })?.first ?? keyframe(atOrBefore: newest.first) {
                starts.append(start)
            }
        }
        guard let start = starts.max(), start > blocks[0].first else { return nil }
        return start
    }
}
