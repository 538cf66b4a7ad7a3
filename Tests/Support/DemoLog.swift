import Foundation
import PhotoApp
import RewindCore
import RewindLog

/// A log of every scripted session, recorded once per test run at a fixed start time, so that
/// tests can compare exact output.
public enum DemoLog {
    /// The start time of every session: 2027-01-15 08:00:00 UTC.
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Records the scripted sessions into `path`.
    @MainActor
    public static func record(into path: String) async throws {
        let sink = try SQLiteSink(path: path)
        let host = RecordingHost(sink: sink)
        for session in ScriptedSession.all {
            await session.run(host: host, start: start)
        }
        try sink.close()
    }
}
