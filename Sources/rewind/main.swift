import PhotoApp
import RewindCLI

// The stock `rewind`: the command line with the photo app's flows and drivers, and `bench`.
await RewindCommandLine(
    commandName: "rewind",
    flows: SeedFlows.registry,
    scripts: SeedFlows.scripts,
    randomScript: SeedFlows.randomScript,
    featuredScript: "login-invalid-then-fixed",
    tourSuggestions: [#"find LOG --where 'status == "failed"'"#],
    extraCommands: [BenchCommand.self]
).main()
