import Foundation

/// What the last replay of a session against a build said (`rewind replay … --record-verdict
/// BUILD`), kept in the session's tags as ``SessionReport`` is, so that every store that keeps
/// tags keeps it and the collector's sessions page shows it: which collected bugs the code
/// still reproduces. A later verdict replaces it.
public struct ReplayVerdict: Sendable, Hashable {
    /// How the replay ended, as a row shows it.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Every step matched the recording.
        case passed
        /// A step's state, or the work it asked for, differs from the recording.
        case diverged
        /// Runs of a step gave different states (or read a clock).
        case nondeterministic
        /// A recorded value could not be decoded by the build's types.
        case refused
    }

    public var outcome: Outcome
    /// The step it stopped at; 0 for ``Outcome/passed``.
    public var step: Int
    /// The build replayed against: a commit, a version, a CI run's name.
    public var build: String
    /// When the replay ran, to the second.
    public var at: Date

    /// A verdict; `build` must be ``isValidBuild(_:)``.
    public init(outcome: Outcome, step: Int, build: String, at: Date) {
        self.outcome = outcome
        self.step = outcome == .passed ? 0 : max(0, step)
        self.build = build
        self.at = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
    }

    /// The tag holding the outcome's word.
    public static let tag = "rewind.verdict"
    /// The tags holding the step, the build and the time (seconds since 1970, in decimal).
    public static let stepTag = "rewind.verdict.step"
    public static let buildTag = "rewind.verdict.build"
    public static let timeTag = "rewind.verdict.at"
    /// What a build's name may hold: 1 to 128 bytes of printable ASCII, no space at either end.
    public static let maximumBuildBytes = 128

    /// Whether `build` can name a build: printable ASCII (a commit, `v2.3.1`, `ci-4512`), 1 to
    /// ``maximumBuildBytes`` bytes. A verdict is shown on a page and in a terminal; a name
    /// that is plain text needs no escaping to be read right.
    public static func isValidBuild(_ build: String) -> Bool {
        (1...maximumBuildBytes).contains(build.utf8.count) && build.utf8.allSatisfy { (0x20...0x7E).contains($0) }
            && build.first != " " && build.last != " "
    }

    /// The verdict the tags of a session hold, if they hold a whole one.
    public init?(tags: [String: String]) {
        guard let word = tags[Self.tag], let outcome = Outcome(rawValue: word), let build = tags[Self.buildTag],
            let seconds = tags[Self.timeTag].flatMap(Int.init), seconds >= 0
        else { return nil }
        self.init(
            outcome: outcome, step: tags[Self.stepTag].flatMap { Int($0) } ?? 0, build: build,
            at: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The verdict as tags.
    public var tags: [String: String] {
        [Self.tag: outcome.rawValue, Self.stepTag: String(step), Self.buildTag: build, Self.timeTag: String(Int(at.timeIntervalSince1970))]
    }

    /// `passed`, `diverged at step 12`: what a row shows before the build.
    public var text: String {
        outcome == .passed ? "passed" : "\(outcome.rawValue) at step \(step)"
    }
}
