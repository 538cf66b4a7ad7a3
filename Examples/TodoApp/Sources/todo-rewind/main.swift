import RewindCLI
import TodoApp

// The todo app's own inspector: every `rewind` verb, with the todo flow's reducer for
// `replay`, `replay --update` and `step`'s rerun, and its scripts for `record` and `demo`.
await RewindCommandLine(
    commandName: "todo-rewind",
    abstract: "Record, inspect and replay the todo app's sessions.",
    flows: TodoFlows.registry,
    scripts: TodoFlows.scripts,
    tourSuggestions: ["history LOG 'items[0].title' --session todo-basics"]
).main()
