import ArgumentParser

/// A step number on the command line: 0 is the initial state, and a negative number counts
/// back from the session's last step (-1 is the last), as a person reading a timeline from its
/// end would.
struct StepArgument: ExpressibleByArgument, Sendable {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }

    init?(argument: String) {
        guard let value = ArgumentNormalizer.integer(argument) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { String(value) }
}
