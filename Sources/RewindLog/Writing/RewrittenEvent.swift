import GRDB

/// An event row as `replay --update` rewrites it: its stored values, changed, and the checksum
/// that covers them.
struct RewrittenEvent {
    var step: Int64
    var time: Double
    var origin: String
    var actionType: String
    var action: String
    var cause: Int64?
    var outputs: String?
    var digest: Int64
    var keyframe: String?
    var patch: String?

    /// The values of `row`, read with the columns of `LogSchema.columns`.
    init(_ row: Row) throws {
        step = try row.stored("step")
        time = try row.stored("time")
        origin = try row.stored("origin")
        actionType = try row.stored("action_type")
        action = try row.stored("action")
        cause = try row.stored("cause")
        outputs = try row.stored("outputs")
        digest = try row.stored("digest")
        keyframe = try row.stored("keyframe")
        patch = try row.stored("patch")
    }

    /// The checksum of the row in `session`, in the order of `LogSchema.columns`.
    func checksum(session: Int) -> Int64 {
        var checksum = RowChecksum(table: "event")
        checksum.add(session)
        checksum.add(step)
        checksum.add(time)
        checksum.add(text: origin)
        checksum.add(text: actionType)
        checksum.add(text: action)
        checksum.add(cause)
        checksum.add(text: outputs)
        checksum.add(digest)
        checksum.add(text: keyframe)
        checksum.add(text: patch)
        return checksum.value
    }
}
