// swift-tools-version: 6.0
import PackageDescription

// A small todo app that uses Rewind as any app would: by path here, by URL in yours
// (`.package(url: "https://github.com/…/Rewind", branch: "main")` until a release is tagged).
let package = Package(
    name: "TodoApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TodoApp", targets: ["TodoApp"]),
        .executable(name: "todo-rewind", targets: ["todo-rewind"]),
        .executable(name: "todo-tui", targets: ["todo-tui"]),
        .library(name: "NotesApp", targets: ["NotesApp"]),
        .executable(name: "notes-rewind", targets: ["notes-rewind"]),
    ],
    dependencies: [
        .package(name: "Rewind", path: "../..")
    ],
    targets: [
        // The app's feature: state, actions, reducer, its fake sync service and its flows.
        .target(
            name: "TodoApp",
            dependencies: [
                .product(name: "RewindCore", package: "Rewind"),
                .product(name: "RewindCodable", package: "Rewind"),
                .product(name: "RewindJSON", package: "Rewind"),
                .product(name: "RewindLog", package: "Rewind"),
                .product(name: "RewindReplay", package: "Rewind"),
                .product(name: "RewindUpload", package: "Rewind"),
            ]),
        // The app's own inspector: every `rewind` verb, replaying with the app's reducers.
        .executableTarget(
            name: "todo-rewind",
            dependencies: [
                "TodoApp",
                .product(name: "RewindCLI", package: "Rewind"),
            ]),
        .testTarget(
            name: "TodoAppTests",
            dependencies: [
                "TodoApp",
                "todo-rewind",
                .product(name: "RewindCore", package: "Rewind"),
                .product(name: "RewindTesting", package: "Rewind"),
                .product(name: "RewindCLI", package: "Rewind"),
                .product(name: "RewindReplay", package: "Rewind"),
                .product(name: "RewindReport", package: "Rewind"),
                .product(name: "RewindLive", package: "Rewind"),
                "ExampleTestSupport",
            ]),
        // The todo list in a terminal, recording, and shown live in `rewind live` (docs/live.md):
        // what the app's screen would be, redrawn through `observe`.
        .executableTarget(
            name: "todo-tui",
            dependencies: [
                "TodoApp",
                .product(name: "RewindCore", package: "Rewind"),
                .product(name: "RewindLog", package: "Rewind"),
                .product(name: "RewindLive", package: "Rewind"),
            ]),
        // Runs the package's executables from the tests of both apps.
        .target(name: "ExampleTestSupport", path: "Tests/Support"),
        // A plainer consumer: plain `Codable` (no macro), UUID ids, a reducer that reads its
        // token's characters. It links RewindCore and RewindReplay only.
        .target(
            name: "NotesApp",
            dependencies: [
                .product(name: "RewindCore", package: "Rewind"),
                .product(name: "RewindReplay", package: "Rewind"),
            ]),
        .executableTarget(
            name: "notes-rewind",
            dependencies: [
                "NotesApp",
                .product(name: "RewindCLI", package: "Rewind"),
            ]),
        .testTarget(
            name: "NotesAppTests",
            dependencies: [
                "NotesApp",
                "notes-rewind",
                "ExampleTestSupport",
                .product(name: "RewindLog", package: "Rewind"),
                .product(name: "RewindJSON", package: "Rewind"),
                .product(name: "RewindTesting", package: "Rewind"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
