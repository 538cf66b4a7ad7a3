#if Servers
import Foundation
import RewindLog
import RewindUpload

/// `rewind live`: the inspector a running app streams its steps to, and that sends it
/// through time (docs/live.md, DESIGN.md section 17). HTTP on Hummingbird, for development.
///
/// Apps upload their session as to a collector (the same frame and routes) into the
/// inspector's own log; pages get the report's page in a live mode, events as Server-Sent
/// Events, each session's steps as the report's data, and send commands that the app asks
/// for by a long poll. With a ``pairingCode`` (listening beyond loopback) every request shows
/// it; without one, only requests to a loopback host name are answered.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct LiveInspector: Sendable {
    /// Where the apps' sessions go: the inspector's own log, opened (and made when missing)
    /// when the inspector starts to serve.
    public let logPath: String
    /// The code every request shows, when there is one.
    public let pairingCode: String?
    /// What one upload may hold.
    public var limits: UploadLimits = .default
    /// Seconds a connection may wait without a request under way.
    public var idleSeconds: Double = 30

    public init(logPath: String, pairingCode: String?) {
        self.logPath = logPath
        self.pairingCode = pairingCode
    }

    /// A pairing code: 12 characters of an alphabet without look-alikes, 60 bits from the
    /// system's random source.
    public static func makePairingCode() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var random = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] })
    }
}
#endif
