import Foundation
import Testing

/// CONTRIBUTING.md lists `.ci/run`'s steps, each under the title `.ci/run` prints, in order.
@Suite struct ContributingTests {
    static let root = ReadmeSnippetTests.root

    /// The titles `.ci/run` gives its steps (`step "…"`).
    static func stepTitles(of script: String) -> [String] {
        script.components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix("step \""), line.hasSuffix("\"") else { return nil }
            return String(line.dropFirst("step \"".count).dropLast())
        }
    }

    /// The titles CONTRIBUTING's "Checks" gives them: in its block, the comment line that opens
    /// each group of lines (a note in parentheses may follow it).
    static func listedTitles(of contributing: String) -> [String] {
        let checks = contributing.components(separatedBy: "## Checks").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        let lines = checks.components(separatedBy: "\n")
        return lines.indices.compactMap { index in
            let line = lines[index]
            let opensGroup = index > 0 && lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty
            guard opensGroup, line.hasPrefix("    # "), !line.hasPrefix("    # (") else { return nil }
            return String(line.dropFirst("    # ".count))
        }
    }

    @Test func everyStepOfCIIsListedInItsOrder() throws {
        let script = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let contributing = try String(contentsOf: Self.root.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        let steps = Self.stepTitles(of: script)
        #expect(steps.count >= 14)
        #expect(Self.listedTitles(of: contributing) == steps)
    }
}
