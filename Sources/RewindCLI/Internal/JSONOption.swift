import ArgumentParser

/// `--json`: data as JSON instead of text.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON (see docs/cli.md for each command's shape).")
    var json = false
}
