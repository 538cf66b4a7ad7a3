import NotesApp
import RewindCLI

// The notes app's own inspector: every `rewind` verb, with the notes flow.
await RewindCommandLine(
    commandName: "notes-rewind",
    abstract: "Record, inspect and replay the notes app's sessions.",
    flows: NotesFlows.registry,
    scripts: NotesFlows.scripts
).main()
