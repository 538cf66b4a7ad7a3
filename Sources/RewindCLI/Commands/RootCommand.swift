import ArgumentParser

/// The command itself (`rewind`, or an app's own name): its subcommands are the verbs.
struct RootCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let commandLine = CommandContext.current
        let recording: [any ParsableCommand.Type] = [DemoCommand.self, RecordCommand.self]
        let inspecting: [any ParsableCommand.Type] = [
            SessionsCommand.self, LogCommand.self, ShowCommand.self, DiffCommand.self, StepCommand.self,
            HistoryCommand.self, FindCommand.self, ReportCommand.self, ExportCommand.self, ImportCommand.self,
            CheckCommand.self, ReplayCommand.self, MinimizeCommand.self, WriteTestCommand.self, PushCommand.self, PullCommand.self, ServeCommand.self,
            LiveInspectorCommand.self,
        ]
        return CommandConfiguration(
            commandName: commandLine.commandName,
            abstract: commandLine.abstract,
            version: commandLine.version,
            subcommands: recording + inspecting + commandLine.extraCommands
        )
    }
}
