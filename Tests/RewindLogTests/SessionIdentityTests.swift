import Foundation
import GRDB
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// Every session has an identity and metadata (log format 4): written with it, read back,
/// given to older sessions by the migration, and checked like every row.
@Suite struct SessionIdentityTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let metadata = SessionMetadata(
        app: "Notes", appVersion: "2.3", appBuild: "2301", device: "iPhone15,2", os: "iOS 17.1.0", origin: .ci,
        tags: ["user": "42", "ticket": "ABC-12"])

    private static func record(into path: String, name: String, id: UUID = UUID(), metadata: SessionMetadata = metadata) throws {
        let recorder = Recorder<Int, Tick>(
            sink: try SQLiteSink(path: path), session: SessionDescriptor(name: name, flow: "test", id: id, metadata: metadata))
        recorder.start(initialState: 0)
        for step in 1...3 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
    }

    /// A recording of log format 3 (`Tests/Fixtures`), copied to `folder`.
    private static func formatThreeLog(in folder: TemporaryDirectory) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = folder.path("login-happy.rewind")
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Tests/Fixtures/login-happy-format3.rewind").path, toPath: path)
        return path
    }

    @Test func aSessionKeepsTheIdentityAndMetadataItWasRecordedWithAndIsFoundByIt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("log.rewind")
        try Self.record(into: path, name: "first", id: Self.id)
        try Self.record(into: path, name: "second", metadata: SessionMetadata())
        let reader = try LogReader(path: path)
        let sessions = try reader.sessions()
        #expect(reader.formatVersion == 6)
        #expect(sessions.map(\.id) == [Self.id, sessions[1].id] && sessions[1].id != nil && sessions[1].id != Self.id)
        #expect(sessions.map(\.metadata) == [Self.metadata, SessionMetadata()])
        #expect(try reader.session(Self.id.uuidString).name == "first")
        #expect(try reader.session(Self.id.uuidString.lowercased()).name == "first", "UUID(uuidString:) takes either case")
    }

    @Test func aSecondSessionWithAnIdentityTheLogHoldsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("log.rewind")
        try Self.record(into: path, name: "first", id: Self.id)
        let sink = try SQLiteSink(path: path)
        defer { try? sink.close() }
        let header = SessionHeader(
            name: "copy", flow: "test", startedAt: Date(), schemaVersion: 1, initialState: 0, initialDigest: JSONValue.int(0).digest,
            redactedPaths: [], id: Self.id)
        #expect(throws: LogError(.invalidArgument, path: path, session: 1, "holds session #1 already, whose identity is \(Self.id.uuidString)")) {
            try sink.beginSession(header)
        }
        #expect(try LogReader(path: path).sessions().count == 1)
    }

    @Test func migratingAFormatThreeLogGivesEachSessionANewIdentityAndNoMetadata() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.formatThreeLog(in: folder)
        let before = try LogReader(path: path)
        #expect(before.formatVersion == 3)
        #expect(try before.sessions().map(\.id) == [nil])
        try SQLiteSink(path: path).close()
        let after = try LogReader(path: path)
        #expect(after.formatVersion == 6)
        let session = try after.session(nil)
        #expect(session.id != nil && session.metadata == SessionMetadata())
        try Self.record(into: path, name: "new")
        let both = try LogReader(path: path).sessions()
        #expect(both.count == 2 && both[0].id == session.id && both[1].metadata == Self.metadata)
    }

    @Test func aChangedIdentityRowIsNamedAsDamageOfItsSessionAlone() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("log.rewind")
        try Self.record(into: path, name: "first", id: Self.id)
        try Self.record(into: path, name: "second")
        let database = try DatabaseQueue(path: path)
        try database.write { db in try db.execute(sql: "UPDATE session_meta SET tags = '{\"user\":\"43\"}' WHERE session_id = 1") }
        try database.close()
        let reader = try LogReader(path: path)
        #expect(throws: LogError.self) { try reader.session("first") }
        do {
            _ = try reader.session("first")
        } catch {
            #expect(error.kind == .damaged)
            #expect(error.description == "\(path): the log is damaged: session #1's identity row does not match its checksum")
        }
        #expect(try reader.session("second").name == "second")
    }
}
