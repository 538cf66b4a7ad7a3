import Foundation
import PhotoApp
import RewindCore
import Testing

@testable import RewindLog

@MainActor
@Suite struct SecretTests {
    private let passwords = ["wonderland42", "builder-2024"]

    private func occurrences(in path: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return passwords.reduce(0) { count, password in
            count + data.ranges(of: Data(password.utf8)).count
        }
    }

    @Test func typedPasswordsReachNeitherTheLogNorItsWALNorItsSharedMemory() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("secrets.rewind")
        let sink = try SQLiteSink(path: path)
        let host = RecordingTestHost(sink: sink)
        for session in ScriptedSession.all where session.flow != "photos" {
            await session.run(host: host, start: .testEpoch)
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "checked while the WAL is live")
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try occurrences(in: file) == 0, "\(file)")
        }
        try sink.close()
        #expect(try occurrences(in: path) == 0)

        let sessions = try LogReader(path: path).sessions()
        #expect(sessions[0].redactedPaths == ["action.didUpdatePassword._0", "password"])
        #expect(sessions.last?.redactedPaths == ["action.login._0.didUpdatePassword._0", "login.password"])
    }

    @Test func logFilesAreReadableByTheirOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("mode.rewind")
        try SQLiteSink(path: path).close()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
