import Foundation

/// Where a store's live view goes, and what the inspector may do to the app (docs/live.md):
/// `.inspector(URL)`, beside recording.
public struct LiveInspectorLink: Sendable {
    /// The inspector's root, as `rewind live` prints it (`http://127.0.0.1:7777`).
    public var url: URL
    /// The code `rewind live` prints when it listens beyond loopback; nil on loopback.
    public var pairingCode: String?
    /// Whether the inspector may send the app to a step, skip one or dispatch an action. Off
    /// unless the app says so: keep it under `#if DEBUG`. Without it the inspector watches
    /// the app's steps, and every command is refused.
    public var allowsTravel: Bool
    /// How often the app's log is looked at for new steps (one `PRAGMA data_version`).
    public var interval: Duration

    /// The inspector at `url`.
    public static func inspector(_ url: URL, pairingCode: String? = nil, allowsTravel: Bool = false, interval: Duration = .milliseconds(10))
        -> LiveInspectorLink
    {
        LiveInspectorLink(url: url, pairingCode: pairingCode, allowsTravel: allowsTravel, interval: interval)
    }
}
