import Foundation

/// Programs the benchmarks run from this machine's `PATH`: a browser, valgrind, strip.
enum Executables {
    /// The path of the first of `names` found in a folder of `PATH`, folder by folder for each
    /// name in turn; nil when none is installed.
    static func find(_ names: String...) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }
}
