import Foundation

extension SessionMetadata {
    /// What this process can tell about itself: the app's name, version and build from its
    /// bundle (the executable's name where there is none), the device's model, the operating
    /// system, and the origin: `ci` when the environment has `CI` set (GitHub Actions, GitLab
    /// CI, Buildkite, CircleCI and Jenkins' plugins all set it), else `dev` in a debug build and
    /// `device` in a release build.
    public static var current: SessionMetadata {
        let bundle = Bundle.main.infoDictionary ?? [:]
        let environment = ProcessInfo.processInfo.environment
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let inCI = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        return SessionMetadata(
            app: bundle["CFBundleName"] as? String ?? ProcessInfo.processInfo.processName,
            appVersion: bundle["CFBundleShortVersionString"] as? String,
            appBuild: bundle["CFBundleVersion"] as? String,
            device: deviceModel(),
            os: "\(osName) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            origin: inCI ? .ci : (isDebugBuild ? .dev : .device)
        )
    }

    private static var osName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #elseif os(Windows)
        "Windows"
        #else
        "unknown"
        #endif
    }

    private static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// The hardware model (`iPhone15,2`, `MacBookPro18,3`) where the system names it, else
    /// the machine's architecture (`x86_64`).
    private static func deviceModel() -> String? {
        #if canImport(Darwin)
        // `hw.machine` is the model on iOS, the architecture on macOS; `hw.model` the reverse.
        #if os(macOS)
        let name = "hw.model"
        #else
        let name = "hw.machine"
        #endif
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [CChar](repeating: 0, count: size)
        guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
        return String(cString: bytes)
        #else
        var system = utsname()
        guard uname(&system) == 0 else { return nil }
        return withUnsafeBytes(of: &system.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        #endif
    }
}
