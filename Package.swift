// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Rewind",
    // The floor most apps still support; docs/platforms.md lists what each Apple API needs, and
    // tools/check-apple-availability reads the floor from here.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RewindCore", targets: ["RewindCore"]),
        .library(name: "RewindJSON", targets: ["RewindJSON"]),
        .library(name: "RewindCodable", targets: ["RewindCodable"]),
        .library(name: "RewindLog", targets: ["RewindLog"]),
        .library(name: "RewindRendering", targets: ["RewindRendering"]),
        .library(name: "RewindReplay", targets: ["RewindReplay"]),
        .library(name: "RewindInspector", targets: ["RewindInspector"]),
        .library(name: "RewindReport", targets: ["RewindReport"]),
        .library(name: "PhotoApp", targets: ["PhotoApp"]),
        .library(name: "RewindTesting", targets: ["RewindTesting"]),
        .library(name: "RewindCLI", targets: ["RewindCLI"]),
        .library(name: "RewindTeamStore", targets: ["RewindTeamStore"]),
        .library(name: "RewindUpload", targets: ["RewindUpload"]),
        .library(name: "RewindLive", targets: ["RewindLive"]),
        .library(name: "RewindCollector", targets: ["RewindCollector"]),
        .executable(name: "rewind", targets: ["rewind"]),
        .executable(name: "rewind-recording-probe", targets: ["rewind-recording-probe"]),
        .executable(name: "rewind-load-client", targets: ["rewind-load-client"]),
    ],
    // `Servers`: what talks to or is a server: the team store on PostgreSQL (`push`, `sessions
    // postgres://…`), the collector (`rewind serve`) and the live inspector (`rewind live`).
    // Off by default, so that an app that records clones and builds none of the server
    // packages: `swift run --traits Servers rewind live`.
    traits: [
        .trait(
            name: "Servers",
            description:
                "The servers and their clients: the team store on PostgreSQL (rewind push, postgres:// locations), the collector (rewind serve) and the live inspector (rewind live)."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // `@RewindCodable`'s macro. Only apps that use the macro build it.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
        // The PostgreSQL client of the team store, behind the `Servers` trait.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The collector's HTTP server and its tokens' hashes, behind the `Servers` trait
        // (without Hummingbird's default traits: no swift-configuration).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The servers' services and signals: SIGTERM and SIGINT end the long polls and event
        // streams of `rewind live` before its connections are waited for (Hummingbird's own).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation --target RewindCore`: the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The store, reducers, effects, middleware and the recording contract. No SQLite, no CLI.
        .target(name: "RewindCore", dependencies: ["RewindJSON", "CStepTicks", .product(name: "Atomics", package: "swift-atomics")]),
        // The counter a recorder stamps steps with on the dispatch path (`rdtsc` and the like).
        .target(name: "CStepTicks"),
        // Canonical JSON values, their text form, and structural diff and patch.
        .target(name: "RewindJSON"),
        // `@RewindCodable`: coders for JSON trees written into an app's types, and its macro.
        .target(name: "RewindCodable", dependencies: ["RewindJSON", "RewindCodableMacros"]),
        // What the macro writes and refuses, apart from the plugin that carries it, so that its
        // tests depend on a library: a test target that depends on a macro makes SwiftPM build
        // every module of the test product a second time, for the host (the server packages
        // too, with the Servers trait: 13 minutes for the tests' build against N).
        .target(
            name: "RewindCodableExpansion",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .macro(
            name: "RewindCodableMacros",
            dependencies: [
                "RewindCodableExpansion", .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // The seed flows of the photo app, their drivers, and their registry for replay.
        .target(name: "PhotoApp", dependencies: ["RewindCore", "RewindReplay", "RewindCodable"]),
        // zlib, which compresses the log's blocks of steps: in every Apple SDK, and Debian's zlib1g-dev.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The log: SQLite schema and migrations, the SQLite sink, the reader and state reconstruction.
        .target(
            name: "RewindLog",
            dependencies: [
                "RewindCore", "RewindJSON", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Values and changes as text for people: styles, summaries, pretty-printing, diffs.
        .target(name: "RewindRendering", dependencies: ["RewindJSON"]),
        // Replay: the flows an app registers, replaying recordings through them, reports.
        .target(
            name: "RewindReplay",
            dependencies: [
                "RewindCore", "RewindJSON", "RewindLog", "RewindRendering",
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The inspector as a library: queries, stepping, checks, export and import, rendering.
        .target(name: "RewindInspector", dependencies: ["RewindCore", "RewindJSON", "RewindLog", "RewindRendering", "RewindReplay"]),
        // `rewind report`: a log as one self-contained HTML page; its HTML, style and script
        // are compiled into the binary.
        .target(
            name: "RewindReport",
            dependencies: ["RewindJSON", "RewindLog", "RewindRendering", "RewindReplay", "RewindInspector"],
            resources: [.embedInCode("Assets/report.html"), .embedInCode("Assets/report.css"), .embedInCode("Assets/report.js")]
        ),
        // Test support for users: replay a recording inside their own tests.
        .target(name: "RewindTesting", dependencies: ["RewindCore", "RewindJSON", "RewindRendering", "RewindReplay"]),
        // A headless Chromium driven over WebDriver (chromedriver), and a clean spawn of a
        // child: the browser tests' and `rewind bench`'s live page. No package of its own.
        .target(name: "RewindWebDriver"),
        // `rewind bench`: the benchmark suite and its baselines.
        .target(
            name: "RewindBench",
            dependencies: [
                "RewindCore", "RewindJSON", "RewindCodable", "RewindLog", "RewindInspector", "RewindReplay", "RewindReport", "RewindUpload", "RewindLive",
                "RewindWebDriver", "PhotoApp",
                "CStepTicks",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The team store: sessions of many logs in PostgreSQL, and `SessionStores`, which opens
        // the store a location names (a log, a team store, a collector). Without the `Servers`
        // trait it holds only what needs no server package: locations, and the opener, which
        // then says a `postgres://` location needs the trait.
        .target(
            name: "RewindTeamStore",
            dependencies: [
                "RewindCore", "RewindJSON", "RewindLog", "RewindUpload",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Servers"])),
                .product(name: "Atomics", package: "swift-atomics", condition: .when(traits: ["Servers"])),
            ]
        ),
        // Uploading a log's sessions to a collector over HTTP (URLSession): what an app links
        // to ship its recordings, and `rewind push --to https://…`; the upload's frame and
        // limits, which the collector reads with it. No server package.
        .target(name: "RewindUpload", dependencies: ["RewindCore", "RewindJSON", "RewindLog", .product(name: "Atomics", package: "swift-atomics")]),
        // Live time travel of the running app (DESIGN.md section 17), the app's side: its
        // store sent to a recorded step, back, or past skipped steps. No server package.
        .target(
            name: "RewindLive",
            dependencies: ["RewindCore", "RewindJSON", "RewindLog", "RewindReplay", "RewindUpload", .product(name: "Atomics", package: "swift-atomics")]
        ),
        // `rewind serve`: the collector apps and CI jobs upload to, on Hummingbird. Without the
        // `Servers` trait it holds only a stand-in that says so.
        .target(
            name: "RewindCollector",
            dependencies: [
                "RewindCore", "RewindJSON", "RewindLog", "RewindRendering", "RewindInspector", "RewindReport", "RewindTeamStore", "RewindUpload",
                "RewindLive",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Servers"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Servers"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Servers"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Servers"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Servers"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Servers"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Servers"])),
            ]
        ),
        // The command line as a library: every verb, with the flows an app registers.
        .target(
            name: "RewindCLI",
            dependencies: [
                "RewindCore", "RewindJSON", "RewindLog", "RewindRendering", "RewindReplay", "RewindInspector", "RewindReport", "RewindTeamStore",
                "RewindUpload", "RewindCollector", "RewindLive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The stock `rewind`: the command line with the photo app's flows, and `bench`.
        .executableTarget(
            name: "rewind",
            dependencies: [
                "RewindCLI",
                "RewindBench",
                "PhotoApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A plain program that records login steps, for `rewind bench` to count their
        // instructions under callgrind (which cannot run `rewind` itself).
        .executableTarget(name: "rewind-recording-probe", dependencies: ["RewindBench"]),
        // Many devices uploading to a collector at once, for tools/load-test.
        .executableTarget(
            name: "rewind-load-client",
            dependencies: ["RewindUpload", "RewindLog", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Helpers our own test targets share: temporary folders and a log of the scripted sessions.
        .target(
            name: "RewindTestSupport",
            dependencies: ["RewindLog", "RewindCore", "RewindJSON", "PhotoApp", "CZlib", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support"),
        // A command line whose login reducer traps, for the tests of `minimize --crash`.
        .executableTarget(name: "crashing-rewind", dependencies: ["RewindCLI", "RewindReplay", "RewindCore", "PhotoApp"], path: "Tests/CrashingRewind"),
        .testTarget(name: "RewindJSONTests", dependencies: ["RewindTestSupport", "RewindJSON"]),
        .testTarget(name: "RewindCodableTests", dependencies: ["RewindCodable", "RewindJSON", "RewindCore", "RewindTesting", "PhotoApp"]),
        // The macro's expansions, through its library (above), not the macro target.
        .testTarget(
            name: "RewindCodableMacroTests",
            dependencies: [
                "RewindCodableExpansion",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "RewindCoreTests",
            dependencies: ["RewindTestSupport", "RewindCore", "RewindJSON", .product(name: "Atomics", package: "swift-atomics")]
        ),
        .testTarget(name: "PhotoAppTests", dependencies: ["PhotoApp", "RewindCore"]),
        .testTarget(
            name: "RewindLogTests",
            dependencies: [
                "RewindTestSupport", "RewindLog", "PhotoApp", "RewindCore", "RewindJSON",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "RewindTestSupport", "RewindTesting", "RewindReplay", "RewindRendering", "RewindInspector", "RewindLog", "RewindJSON", "RewindCore", "PhotoApp",
            ]
        ),
        .testTarget(
            name: "RewindInspectorTests",
            dependencies: ["RewindTestSupport", "RewindInspector", "RewindRendering", "RewindReplay", "RewindLog", "RewindJSON", "PhotoApp", "RewindCore"]
        ),
        .testTarget(
            name: "RewindReportTests",
            dependencies: ["RewindTestSupport", "RewindReport", "RewindLog", "RewindJSON", "RewindCore", "PhotoApp"]
        ),
        .testTarget(name: "RewindLiveTests", dependencies: ["RewindTestSupport", "RewindLive", "RewindCore", "RewindLog", "RewindJSON"]),
        .testTarget(name: "RewindUploadTests", dependencies: ["RewindTestSupport", "RewindUpload", "RewindLog", "RewindCore", "RewindJSON"]),
        .testTarget(name: "RewindTeamStoreTests", dependencies: ["RewindTestSupport", "RewindTeamStore", "RewindInspector", "RewindLog", "RewindUpload"]),
        .testTarget(
            name: "RewindCLITests",
            dependencies: [
                "RewindTestSupport", "rewind", "crashing-rewind", "RewindCLI", "RewindReplay", "RewindInspector", "RewindLog", "RewindCore", "RewindJSON",
                "RewindUpload", "RewindCollector", "RewindLive", "RewindTeamStore", "RewindWebDriver",
                "PhotoApp",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's runs under the thread and address sanitizers (.ci/run sets REWIND_SANITIZER_BUILD to
// `thread` or `address`) build only what their tests reach: the store, the recorder, the log,
// its readers and replay. The command line, the report, the servers and the tests of those are
// left out, and so are the macro's tests.
//
// The sanitizer instruments these targets alone, through their own flags, rather than every
// module through `swift build --sanitize`: the packages they use (GRDB, swift-syntax for the
// macro, swift-atomics) then compile as in any build, so that a sanitizer's build in the
// folder of the tests' build reuses them and compiles only Rewind's modules (CI's thread
// sanitizer step took 115-144 s, against 529 s with --sanitize in a folder of its own). Races and bad accesses are looked for in Rewind's
// code, which is what these runs are for; SQLite, zlib and the toolchain's libraries were
// never instrumented either.
if let sanitizer = Context.environment["REWIND_SANITIZER_BUILD"] {
    let kept: Set<String> = [
        "RewindCore", "CStepTicks", "RewindJSON", "RewindCodable", "RewindCodableMacros", "RewindCodableExpansion", "PhotoApp", "CZlib", "RewindLog",
        "RewindRendering", "RewindReplay", "RewindInspector", "RewindTesting", "RewindTestSupport",
        "RewindJSONTests", "RewindCodableTests", "RewindCoreTests", "RewindLogTests", "ReplayTests", "RewindInspectorTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !kept.contains($0.name) }
    guard sanitizer == "thread" || sanitizer == "address" else {
        fatalError("REWIND_SANITIZER_BUILD is `thread` or `address`, not `\(sanitizer)`")
    }
    // Not the macro and its library: they run inside the compiler.
    for target in package.targets where ![.macro, .system].contains(target.type) && target.name != "RewindCodableExpansion" {
        // REWIND_SANITIZED: for the tests that count what a sanitizer changes (page faults).
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"]), .define("REWIND_SANITIZED")]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=\(sanitizer)"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
    }
}
