/// What a team searches its sessions by: the app and build that recorded a session, where it
/// ran, and tags the app adds (`user=42`, `ticket=ABC-12`).
///
/// ``current`` fills what the platform knows; an app sets the rest, or overrides any of it,
/// in the ``SessionDescriptor``. Every value is the app's own text, stored as given: readers
/// treat it as untrusted, as they do every recorded string.
public struct SessionMetadata: Sendable, Equatable, Hashable {
    /// Where a session was recorded.
    public struct Origin: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A user's device: a beta, a release build.
        public static let device = Origin(rawValue: "device")
        /// A CI job.
        public static let ci = Origin(rawValue: "ci")
        /// A developer's machine: a debug build.
        public static let dev = Origin(rawValue: "dev")

        public var description: String { rawValue }
    }

    /// The app's name, like `Photos`.
    public var app: String?
    /// The app's marketing version, like `2.3`.
    public var appVersion: String?
    /// The app's build, like `2301`.
    public var appBuild: String?
    /// The device's model or host, like `iPhone15,2`.
    public var device: String?
    /// The operating system and its version, like `iOS 17.1`.
    public var os: String?
    /// Where the session was recorded.
    public var origin: Origin?
    /// The app's own labels, searched by key and value.
    public var tags: [String: String]

    /// Metadata with the values given and nothing else.
    public init(
        app: String? = nil, appVersion: String? = nil, appBuild: String? = nil, device: String? = nil, os: String? = nil,
        origin: Origin? = nil, tags: [String: String] = [:]
    ) {
        self.app = app
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.device = device
        self.os = os
        self.origin = origin
        self.tags = tags
    }
}
