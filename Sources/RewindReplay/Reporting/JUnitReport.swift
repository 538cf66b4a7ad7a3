import Foundation
import RewindRendering

/// A replay run as JUnit XML, the test report format CI systems read (Jenkins, GitLab,
/// GitHub's test reporters), so that each recorded session shows as a test.
///
/// The root `<testsuites>` holds one `<testsuite>` per log, named by its path as given, and
/// one `<testcase>` per session: its name the session's label (`#2 (login-happy)`: the number
/// keeps it unique and stable, the name makes it readable), its classname the log. A suite
/// per log is what all three read best: they group and count by suite and class, and a run
/// split across shards gives each log's sessions back under one suite when the files are
/// merged. A session diverged (in a state or in the work a step asks for) or nondeterministic
/// is a `<failure>` (the reducers' behaviour changed: a test that fails); a session that
/// cannot be replayed (a value the current types no longer decode, a newer schema) is an
/// `<error>` (the test could not run). Both carry the report `replay` prints, without colour,
/// as their text and its first line as the message.
/// Nothing is skipped: sessions in other shards belong to other jobs' reports.
public struct JUnitReport: Sendable {
    /// The root's name: `rewind replay`, or with the shard, `rewind replay, shard 2/4`.
    public var name: String
    private var suites: [Suite] = []

    public init(name: String = "rewind replay") {
        self.name = name
    }

    /// Adds the suite of the log at `path` if it has none yet, so that a log with no session
    /// in the run is listed too.
    public mutating func add(log path: String) {
        if !suites.contains(where: { $0.log == path }) { suites.append(Suite(log: path)) }
    }

    /// Adds a session's outcome to its log's suite.
    public mutating func add(_ replay: SessionReplay) {
        if let index = suites.firstIndex(where: { $0.log == replay.log }) {
            suites[index].cases.append(TestCase(replay))
        } else {
            suites.append(Suite(log: replay.log, cases: [TestCase(replay)]))
        }
    }

    /// The whole document, with a final newline.
    public var xml: String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let all = suites.flatMap(\.cases)
        lines.append("<testsuites name=\"\(XMLText.attribute(name))\"\(Self.counts(all))>")
        for suite in suites {
            let log = XMLText.attribute(suite.log)
            guard !suite.cases.isEmpty else {
                lines.append("  <testsuite name=\"\(log)\"\(Self.counts(suite.cases))/>")
                continue
            }
            lines.append("  <testsuite name=\"\(log)\"\(Self.counts(suite.cases))>")
            for test in suite.cases {
                let head = "    <testcase name=\"\(XMLText.attribute(test.name))\" classname=\"\(log)\" time=\"\(Self.seconds(test.duration))\""
                guard let problem = test.problem else {
                    lines.append(head + "/>")
                    continue
                }
                lines.append(head + ">")
                lines.append(
                    "      <\(problem.element) message=\"\(XMLText.attribute(problem.message))\" type=\"\(problem.type)\">"
                        + XMLText.content(problem.text) + "</\(problem.element)>")
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` tests="3" failures="1" errors="0" skipped="0" time="0.012"`.
    private static func counts(_ cases: [TestCase]) -> String {
        let failures = cases.count { $0.problem?.element == "failure" }
        let errors = cases.count { $0.problem?.element == "error" }
        let time = seconds(cases.reduce(.zero) { $0 + $1.duration })
        return " tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(time)\""
    }

    /// Seconds with three decimals, as JUnit writes them: `0.012`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return String(format: "%.3f", Double(whole) + Double(fraction) / 1e18)
    }

    private struct Suite: Sendable {
        let log: String
        var cases: [TestCase] = []
    }

    /// A session as JUnit sees it: the replay's report is kept as text, not its states.
    private struct TestCase: Sendable {
        let name: String
        let duration: Duration
        let problem: (element: String, type: String, message: String, text: String)?

        init(_ replay: SessionReplay) {
            name = replay.session.label
            duration = replay.duration
            let lines = ReplayReport.lines(replay, style: .plain)
            // The first line without `FAILED  LOG #N (NAME): ` or its closing colon.
            var message = Substring(lines.first ?? "")
            let prefix = "FAILED  \(ReplayReport.name(replay)): "
            if message.hasPrefix(prefix) { message = message.dropFirst(prefix.count) }
            if message.hasSuffix(":") { message = message.dropLast() }
            let text = lines.joined(separator: "\n")
            switch replay.outcome {
            case .matched: problem = nil
            case .diverged: problem = ("failure", "diverged", String(message), text)
            case .behaviourChanged: problem = ("failure", "behaviour_changed", String(message), text)
            case .nondeterministic, .readsClock: problem = ("failure", "nondeterministic", String(message), text)
            case .refused: problem = ("error", "refused", String(message), text)
            }
        }
    }
}
