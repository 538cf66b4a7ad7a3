import ArgumentParser

/// `--session S`: which session of a log, by number or name.
struct SessionOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "The session, by number or name; may be left out when the log holds one.")
    var session: String?
}
