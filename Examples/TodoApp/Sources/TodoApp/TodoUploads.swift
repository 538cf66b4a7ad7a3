import Foundation
import RewindUpload

/// How the app ships its recordings to the team's collector (`rewind serve`): every session of
/// the log that the collector does not hold whole goes up, a batch at a time, and what it
/// holds already is skipped. The app calls it at launch and when a session ends; offline, the
/// sessions wait in the log for the next call.
public enum TodoUploads {
    /// Uploads the sessions of `log` to the collector at `collector` with an upload token.
    public static func send(log: String, to collector: URL, token: String) async throws -> [Uploader.Outcome] {
        try await Uploader(log: log, to: CollectorClient(root: collector, token: token)).upload()
    }
}
