import GRDB
import GRDBSQLite
import RewindCore
import RewindJSON

/// Inserts events with the prepared `INSERT INTO event` statement, binding each column through
/// SQLite's C API.
///
/// GRDB's `execute(arguments:)` boxes every argument and turns each JSON text into a `String`
/// first: for the small login state that cost four times the insert itself. Here the JSON is
/// written straight into one reused buffer and bound in place.
struct EventBinder {
    private let statement: OpaquePointer
    private let connection: OpaquePointer?
    /// The action's, the outputs' and the state's JSON texts, one after another.
    private var buffer: [UInt8] = []

    init(statement: OpaquePointer, connection: OpaquePointer?) {
        self.statement = statement
        self.connection = connection
        buffer.reserveCapacity(4_096)
    }

    /// Inserts `event` into `session`; throws the `DatabaseError` SQLite reports.
    mutating func insert(_ event: RecordedEvent, session: Int) throws {
        buffer.removeAll(keepingCapacity: true)
        event.action.canonicalBytes(into: &buffer)
        let actionEnd = buffer.count
        if !event.outputs.isEmpty { JSONValue.array(event.outputs).canonicalBytes(into: &buffer) }
        let outputsEnd = buffer.count
        let isKeyframe: Bool
        switch event.state {
        case let .keyframe(value):
            value.canonicalBytes(into: &buffer)
            isKeyframe = true
        case let .patch(patch):
            patch.json.canonicalBytes(into: &buffer)
            isKeyframe = false
        }
        let checksum = Self.checksum(of: event, session: session, buffer: buffer, actionEnd: actionEnd, outputsEnd: outputsEnd, isKeyframe: isKeyframe)
        let statement = statement
        sqlite3_bind_int64(statement, 12, checksum)
        sqlite3_bind_int64(statement, 1, Int64(session))
        sqlite3_bind_int64(statement, 2, Int64(event.step))
        sqlite3_bind_double(statement, 3, event.time.timeIntervalSince1970)
        sqlite3_bind_text(statement, 4, event.origin, -1, Self.transient)
        sqlite3_bind_text(statement, 5, event.actionName, -1, Self.transient)
        if let cause = event.cause { sqlite3_bind_int64(statement, 7, Int64(cause)) } else { sqlite3_bind_null(statement, 7) }
        sqlite3_bind_int64(statement, 9, event.digest.databaseValue)
        let result = buffer.withUnsafeBufferPointer { bytes -> Int32 in
            let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            // The texts are bound without a copy (no destructor): they stay alive until the step.
            sqlite3_bind_text(statement, 6, base, Int32(actionEnd), nil)
            if outputsEnd > actionEnd {
                sqlite3_bind_text(statement, 8, base.map { $0 + actionEnd }, Int32(outputsEnd - actionEnd), nil)
            } else {
                sqlite3_bind_null(statement, 8)
            }
            let state = base.map { $0 + outputsEnd }
            let stateLength = Int32(bytes.count - outputsEnd)
            sqlite3_bind_text(statement, isKeyframe ? 10 : 11, state, stateLength, nil)
            sqlite3_bind_null(statement, isKeyframe ? 11 : 10)
            let result = sqlite3_step(statement)
            sqlite3_reset(statement)
            // The texts were bound without a copy: no binding may outlive the buffer.
            sqlite3_clear_bindings(statement)
            return result
        }
        guard result == SQLITE_DONE else {
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: result), message: message)
        }
    }

    /// The row's checksum over the values bound, in the order of `LogSchema.columns`.
    private static func checksum(
        of event: RecordedEvent, session: Int, buffer: [UInt8], actionEnd: Int, outputsEnd: Int, isKeyframe: Bool
    ) -> Int64 {
        var checksum = RowChecksum(table: "event")
        checksum.add(session)
        checksum.add(event.step)
        checksum.add(event.time.timeIntervalSince1970)
        checksum.add(text: event.origin)
        checksum.add(text: event.actionName)
        buffer.withUnsafeBytes { bytes in
            checksum.add(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<actionEnd]))
            checksum.add(event.cause)
            checksum.add(bytes: outputsEnd > actionEnd ? UnsafeRawBufferPointer(rebasing: bytes[actionEnd..<outputsEnd]) : nil)
            checksum.add(event.digest.databaseValue)
            let state = UnsafeRawBufferPointer(rebasing: bytes[outputsEnd...])
            checksum.add(bytes: isKeyframe ? state : nil)
            checksum.add(bytes: isKeyframe ? nil : state)
        }
        return checksum.value
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bound text now.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
