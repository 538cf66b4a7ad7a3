#if Servers
import Foundation
import RewindLog
import RewindUpload

/// The collector apps and CI jobs upload sessions to, and people fetch them from
/// (`rewind serve`, docs/collector.md): HTTP on Hummingbird, in front of a store (a log on
/// this machine, or a team store on PostgreSQL).
///
/// Every request shows a token (``CollectorTokens``). An upload is acknowledged (2xx) only
/// once every block in it is verified and committed to the store; a refused one leaves
/// nothing in it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct Collector: Sendable {
    /// What a client may send, and how often.
    public struct Limits: Sendable, Equatable {
        /// What one upload may hold.
        public var upload: UploadLimits
        /// Requests a second a token may make, on average…
        public var requestsPerSecond: Double
        /// …and at once.
        public var burst: Int
        /// Sessions a token may have begun and not ended…
        public var openSessionsPerToken: Int
        /// …counted as open for this many seconds after their last upload: a crashed app's
        /// session never sends its end, and would hold its place for ever.
        public var openSessionSeconds: Double
        /// Seconds a connection may stay without a request under way before it is closed:
        /// a client that sends half a header, or nothing, holds a connection that long.
        public var idleSeconds: Double
        /// Seconds an upload's body may take to arrive, from its headers (408 past it).
        public var bodySeconds: Double
        /// Uploads received or stored at once (503 `busy` past it): each holds its body, so
        /// that they hold at most this many times `upload.bodyBytes`.
        public var uploadsInFlight: Int
        /// The most bytes a session's blocks may hold, inflated, for the collector to build its
        /// report page (which holds several times that); larger ones are answered 413 with the
        /// command that reads them on the reader's own machine.
        public var reportBytes: Int
        /// The same for a session's log: written to a file and sent from it, so that a
        /// request holds the session's compressed blocks once, while copying them.
        public var logBytes: Int

        /// A token is an app's, shared by every device that runs it: 500 requests a second is
        /// 2,000 phones each sending a batch every 4 s.
        public init(
            upload: UploadLimits = .default, requestsPerSecond: Double = 500, burst: Int = 1_000, openSessionsPerToken: Int = 1_000,
            openSessionSeconds: Double = 3_600, idleSeconds: Double = 30, bodySeconds: Double = 60, uploadsInFlight: Int = 64,
            reportBytes: Int = 64 << 20, logBytes: Int = 1 << 30
        ) {
            self.reportBytes = reportBytes
            self.logBytes = logBytes
            self.bodySeconds = bodySeconds
            self.uploadsInFlight = uploadsInFlight
            self.upload = upload
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
            self.openSessionsPerToken = openSessionsPerToken
            self.openSessionSeconds = openSessionSeconds
            self.idleSeconds = idleSeconds
        }
    }

    /// Where sessions go and are read from: opened once, with the collector (a team store's
    /// pool serves reads and uploads alike).
    package let store: any SessionStore
    public let tokens: CollectorTokens
    public let limits: Limits
    /// Whether each block is inflated and its records counted before it is acknowledged
    /// (`StoredSessionCopy.checkBlocks()`), beyond its checksum and bounds. It tripled the time
    /// of an upload of a 1,000,000-step login session into PostgreSQL (1.2 s against 0.4 s on 2
    /// cores), and every reader checks the same as it reads: off unless asked for.
    public let verifiesBlocks: Bool

    package init(
        store: any SessionStore, tokens: CollectorTokens, limits: Limits = Limits(), verifiesBlocks: Bool = false
    ) {
        self.store = store
        self.tokens = tokens
        self.limits = limits
        self.verifiesBlocks = verifiesBlocks
    }
}
#endif
