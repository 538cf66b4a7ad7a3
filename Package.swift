// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "RewindCore", targets: ["RewindCore"]),
        .library(name: "PhotoApp", targets: ["PhotoApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The store, reducers, effects, middleware and the recording contract. No SQLite, no CLI.
        .target(name: "RewindCore"),
        // Canonical JSON values, their text form, and structural diff and patch.
        // The seed flows of the photo app and their drivers.
        .target(name: "PhotoApp", dependencies: ["RewindCore"]),
        .testTarget(name: "RewindCoreTests", dependencies: ["RewindCore"]),
        .testTarget(name: "PhotoAppTests", dependencies: ["PhotoApp", "RewindCore"]),
    ],
    swiftLanguageModes: [.v6]
)
