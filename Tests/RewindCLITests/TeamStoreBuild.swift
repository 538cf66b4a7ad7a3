import Foundation
import Testing

/// The `rewind` built with the `Servers` trait that the team store's and the collector's
/// tests run: this bundle's own when the bundle was built with the trait, else the one
/// `REWIND_TEAMSTORE_BINARY` names (CI builds that product once, rather than every test target
/// a second time). Without either the tests are skipped, unless `REWIND_REQUIRE_TEAMSTORE=1`
/// (CI), where they fail.
enum TeamStoreBuild {
    static let binary: URL? = {
        #if Servers
        return RewindBinary.url
        #else
        guard let path = ProcessInfo.processInfo.environment["REWIND_TEAMSTORE_BINARY"], !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path)
        #endif
    }()
    static let required = ProcessInfo.processInfo.environment["REWIND_REQUIRE_TEAMSTORE"] == "1"
    static var enabled: Bool { binary != nil || required }

    /// Runs that `rewind` as ``RewindBinary/run(_:in:input:environment:program:executable:)`` runs the bundle's.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RewindBinary.Result {
        guard let binary else { throw Missing() }
        return try RewindBinary.run(arguments, environment: environment, executable: binary)
    }

    /// The same, on a thread of its own (``RewindBinary/offTheMainActor(_:)``).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RewindBinary.Result {
        try await RewindBinary.offTheMainActor { try run(arguments, environment: environment) as RewindBinary.Result }
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "REWIND_REQUIRE_TEAMSTORE=1 but no rewind built with the Servers trait: set REWIND_TEAMSTORE_BINARY (swift build --traits Servers --scratch-path .build-teamstore --product rewind)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where a `rewind` with the `Servers` trait is at hand (``TeamStoreBuild``),
    /// or everywhere when `REWIND_REQUIRE_TEAMSTORE=1`: then its absence fails the test.
    static var serversBuild: Self {
        .enabled(
            if: TeamStoreBuild.enabled,
            "needs rewind built with the Servers trait (the collector, the team store, the live inspector): swift test --traits Servers"
        )
    }
}
