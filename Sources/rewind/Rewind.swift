import ArgumentParser

/// The `rewind` command: records store sessions and inspects, diffs and replays them.
@main
struct Rewind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Record, inspect and time-travel through the sessions of a unidirectional store.",
        version: "0.1.0",
subcommands: [
            DemoCommand.self, RecordCommand.self, SessionsCommand.self, LogCommand.self, ShowCommand.self,
            DiffCommand.self, StepCommand.self, HistoryCommand.self, FindCommand.self, ExportCommand.self,
            ImportCommand.self, CheckCommand.self, ReplayCommand.self, BenchCommand.self,
        ]
    )
}
