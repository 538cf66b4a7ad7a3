import Foundation
import RewindJSON

/// One of `count` parts of a set of recorded sessions, so that parallel CI jobs replay each
/// session exactly once between them.
///
/// A session belongs to the shard its identity hashes to, never to one its position gives:
/// adding a log, removing one, or naming the logs in another order moves no other session
/// between shards. The identity is the log file's name (its last path component, so the
/// folder a checkout lives in does not matter), the session's number in that log, its name and
/// its start time to the millisecond, all of which `replay --update` keeps. Renaming a log
/// file therefore moves its sessions to other shards; copying it to another folder does not.
/// The hash is FNV-1a 64 (``StateDigest``), the same on every run, process and machine, unlike
/// `Hasher`, which is seeded per process.
public struct ReplayShard: Sendable, Equatable, CustomStringConvertible {
    /// Which part, from 1.
    public let index: Int
    /// How many parts.
    public let count: Int

    /// Part `index` (from 1) of `count`.
    public init(index: Int, count: Int) throws(ReplayShardError) {
        guard count >= 1 else { throw ReplayShardError(text: "\(index)/\(count)", problem: .noShards) }
        guard (1...count).contains(index) else { throw ReplayShardError(text: "\(index)/\(count)", problem: .indexOutOfRange) }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`, as `--shard` takes it: `2/4` is the second of four parts.
    public init(parsing text: String) throws(ReplayShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ReplayShardError(text: text, problem: .notAFraction)
        }
        do {
            try self.init(index: index, count: count)
        } catch {
            throw ReplayShardError(text: text, problem: error.problem)
        }
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// `{"count": 4, "index": 2}`, for `--json`.
    public var json: JSONValue {
        .object(JSONObject([("count", .int(count)), ("index", .int(index))]))
    }

    /// Whether the session numbered `session.number` of the log at `path` is in this shard.
    public func contains(_ session: SessionSummary, ofLogAt path: String) -> Bool {
        Self.part(of: session, ofLogAt: path, count: count) == index
    }

    /// The part, from 1, of `count` that a session belongs to.
    public static func part(of session: SessionSummary, ofLogAt path: String, count: Int) -> Int {
        let hash = StateDigest(canonicalBytes: Array(identity(of: session, ofLogAt: path).utf8)).rawValue
        // The high bits of a multiplication: FNV-1a's low bits mix poorly (its lowest bit is
        // the parity of the bytes), and `hash % count` would read only them for small counts.
        return Int(hash.multipliedFullWidth(by: UInt64(count)).high) + 1
    }

    /// What a session is known by across runs: `login-happy.rewind #1 login-happy 1800000000000`.
    public static func identity(of session: SessionSummary, ofLogAt path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let milliseconds = Int64((session.startedAt.timeIntervalSince1970 * 1000).rounded())
        return "\(file) #\(session.number) \(session.name ?? "") \(milliseconds)"
    }
}
