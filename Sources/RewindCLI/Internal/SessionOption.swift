import ArgumentParser

/// `--session S`: which session of a log, by number, name or UUID.
struct SessionOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "The session, by number, name or UUID; may be left out when the log holds one.")
    var session: String?
}
