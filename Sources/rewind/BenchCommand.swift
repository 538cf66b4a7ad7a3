import ArgumentParser
import Foundation
import RewindBench

/// `rewind bench`: measures recording, reading and replay beside their baselines.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Rewind beside its baselines, in one run.",
        discussion: """
            Build in release mode for real figures: swift run -c release rewind bench

            Example: swift run -c release rewind bench --json
            """
    )

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "Small sizes, for a smoke run; the figures mean little.")
    var quick = false

    @Option(help: "Only these groups, comma-separated: \(BenchmarkSuite.groups.joined(separator: ", ")).")
    var only: String?

    @Option(
        name: .customLong("keep-files"),
        help: ArgumentHelp("Write the run's logs and pages into this new folder and keep them, to look at or profile.", valueName: "folder"))
    var keepFiles: String?

    func validate() throws {
        for group in only?.split(separator: ",").map(String.init) ?? [] where !BenchmarkSuite.groups.contains(group) {
            throw ValidationError("unknown group '\(group)'; choose from \(BenchmarkSuite.groups.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let groups = only.map { Set($0.split(separator: ",").map(String.init)) }
        let result = try await Self.measure(quick: quick, groups: groups, keepingFilesIn: keepFiles, verbose: !json)
        print(json ? BenchmarkReport.json(result) : BenchmarkReport.table(result).joined(separator: "\n"))
        for note in result.notes {
            FileHandle.standardError.write(Data("note: \(note)\n".utf8))
        }
    }

    @MainActor
    static func measure(quick: Bool, groups: Set<String>?, keepingFilesIn kept: String? = nil, verbose: Bool) async throws -> BenchmarkResult {
        try await BenchmarkSuite(quick: quick, keepingFilesIn: kept).run(groups: groups) { step in
            if verbose { FileHandle.standardError.write(Data("measuring \(step)…\n".utf8)) }
        }
    }
}
