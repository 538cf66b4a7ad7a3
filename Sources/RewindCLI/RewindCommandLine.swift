import ArgumentParser
import Foundation
import RewindCore
import RewindReplay

/// The `rewind` command line, with an app's own flows: every verb of the stock `rewind`, and
/// `replay`, `replay --update`, `step` and `record` running the app's reducers.
///
/// An app makes its own inspector executable in a few lines:
///
/// ```swift
/// import RewindCLI
/// import TodoApp
///
/// @main
/// enum TodoRewind {
///     static func main() async {
///         await RewindCommandLine(
///             commandName: "todo-rewind",
///             flows: TodoFlows.registry,
///             scripts: TodoFlows.scripts
///         ).main()
///     }
/// }
/// ```
///
/// Read-only verbs (`sessions`, `log`, `show`, `diff`, `history`, `find`, `export`, `import`,
/// `check`) work on any Rewind log, whatever flows are registered.
public struct RewindCommandLine: Sendable {
    /// The executable's name, used in usage lines, help and the tour's suggestions.
    public var commandName: String
    /// One line on what the command is for, at the top of `--help`.
    public var abstract: String
    /// What `--version` prints.
    public var version: String
    /// The flows whose reducers `replay`, `step` and `record` run.
    public var flows: ReplayRegistry
    /// The scripted sessions `record --script` and `demo` play.
    public var scripts: [SessionScript]
    /// Makes the seeded random session that `record FLOW --random` plays; nil when the app
    /// has no random driver.
    public var randomScript: (@Sendable (_ flow: String, _ seed: UInt64, _ steps: Int) -> SessionScript?)?
    /// The session whose timeline the `demo` tour shows; the first script's when nil.
    public var featuredScript: String?
    /// Lines the `demo` tour adds to its suggestions, like a `find` that fits the app's state.
    public var tourSuggestions: [String]
    /// More subcommands, after the stock ones (the stock `rewind` adds `bench` this way).
    public var extraCommands: [any ParsableCommand.Type]

    /// A command line that knows `flows` and plays `scripts`.
    public init(
        commandName: String,
        abstract: String? = nil,
        version: String = RewindCommandLine.rewindVersion,
        flows: ReplayRegistry,
        scripts: [SessionScript] = [],
        randomScript: (@Sendable (_ flow: String, _ seed: UInt64, _ steps: Int) -> SessionScript?)? = nil,
        featuredScript: String? = nil,
        tourSuggestions: [String] = [],
        extraCommands: [any ParsableCommand.Type] = []
    ) {
        self.commandName = commandName
        self.abstract = abstract ?? "Record, inspect and time-travel through the sessions of a unidirectional store."
        self.version = version
        self.flows = flows
        self.scripts = scripts
        self.randomScript = randomScript
        self.featuredScript = featuredScript
        self.tourSuggestions = tourSuggestions
        self.extraCommands = extraCommands
    }

    /// The version of Rewind this library belongs to.
    public static let rewindVersion = "0.2.0"

    /// Runs the command named by the process's arguments and exits with its status.
    public func main() async -> Never {
        let status = await run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }

    /// Runs the command named by `arguments` (without the executable's name) and returns its
    /// exit status: 0 ok, 1 a divergence or failed check, 64 usage, 65 an unreadable log,
    /// 66 a missing file, 74 a file that cannot be written. Errors are printed as one line on
    /// standard error; help and version go to standard output.
    public func run(_ arguments: [String]) async -> Int32 {
        await CommandContext.$installed.withValue(self) { await runInstalled(arguments) }
    }

    /// ``run(_:)`` once the commands read this command line.
    private func runInstalled(_ arguments: [String]) async -> Int32 {
        do {
            var command = try RootCommand.parseAsRoot(ArgumentNormalizer.normalize(arguments))
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return CommandErrors.report(error, commandName: commandName)
        }
    }
}
