import ArgumentParser
import Foundation
import RewindTestSupport
import Testing

@testable import RewindCLI

/// Every `rewind …` line of docs/cli/*.md's examples and of the README runs as printed,
/// against a log of `rewind demo` and a copy of `recordings/`, in a folder of its own per page,
/// `rewind` being the binary under test on PATH (and `swift run rewind` standing for it). A
/// line shown as `$ rewind …` must print what the page prints after it (a line `…` stands for
/// any lines, a `…` inside a line for any text); a line without `$` must succeed. Usage lines
/// (`rewind log LOG [--session S]`) are not examples; a line that cannot run here is skipped by
/// name below, with why.
@Suite struct DocumentedCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Lines that cannot run against a finished demo log, and why.
    static let cannotRunHere: [String: String] = [
        "rewind find app.rewind --where 'status == \"failed\"' --follow --first":
            "follows a recording in progress; FollowCommandTests records one under it",
        "rewind log app.rewind --follow --from -1": "follows a recording in progress; FollowCommandTests records one under it",
        "rewind log app.rewind --follow                                  # new steps as they are recorded, like tail -f":
            "follows a recording in progress; FollowCommandTests records one under it",
        "rewind find app.rewind --where 'alert != null' --follow         # matches as a running app records them":
            "follows a recording in progress; FollowCommandTests records one under it",
        "rewind push demo.rewind --to http://127.0.0.1:8080 --token \"$UPLOAD_TOKEN\"":
            "needs a collector and its token; CollectorCommandTests starts one and pushes to it",
        "rewind diff a.rewind:login-happy:20 b.rewind:login-happy:20     # across recordings":
            "needs two recordings of login-happy; IdentityCommandTests diffs across logs",
        "rewind minimize big.rewind --diverging --output small.rewind    # a replay failure, shrunk (also --crash)":
            "needs a recording its reducer no longer replays; MinimizeCommandTests plants one",
        "rewind replay recordings/*.rewind":
            "shows what a changed login reducer prints; ReplayCommandTests plants that change",
    ]

    /// Examples that end with another status than 0, and the status.
    static let exitStatus: [String: Int32] = [
        "rewind check copy.rewind --session 1": 1,
        "rewind import broken.jsonl --output out.rewind": 65,
    ]

    /// What differs from run to run, whatever the page says: the wall-clock times a demo is
    /// recorded at (as dates and as seconds since 1970) and the identities it draws.
    static let runToRun: [(pattern: String, placeholder: String)] = [
        (#"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?Z?"#, "<time>"),
        (#"\b1[6-9]\d{8}(\.\d+)?\b"#, "<seconds since 1970>"),
        (#"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#, "<uuid>"),
    ]

    static func normalized(_ line: String) -> String {
        runToRun.reduce(line) { line, rule in
            line.replacingOccurrences(of: rule.pattern, with: rule.placeholder, options: .regularExpression)
        }
    }

    /// One example: the command as the shell reads it, and what the page says it prints
    /// (nil for a line without `$`, whose output the page does not show).
    struct Example: CustomStringConvertible {
        var page: String
        var line: Int
        var command: String
        var expected: [String]?
        var description: String { "\(page):\(line): \(command)" }
    }

    /// The examples of one page, in order. Code is a fenced block or a block indented by four
    /// spaces; a command may go on over lines ending in `\`.
    static func examples(in page: String, text: String) -> [Example] {
        var examples: [Example] = []
        for block in codeBlocks(text) {
            var index = 0
            while index < block.count {
                let number = block[index].line
                var line = block[index].text
                index += 1
                // `swift run rewind` is how a newcomer runs it, from the package's folder.
                for runner in ["$ swift run rewind ", "swift run rewind "] where line.hasPrefix(runner) {
                    line = (runner.hasPrefix("$") ? "$ " : "") + "rewind " + line.dropFirst(runner.count)
                }
                let dollar = line.hasPrefix("$ ")
                guard dollar || line.hasPrefix("rewind ") else { continue }
                var command = dollar ? String(line.dropFirst(2)) : line
                while command.hasSuffix("\\"), index < block.count {
                    command = String(command.dropLast()) + block[index].text.trimmingCharacters(in: .whitespaces)
                    index += 1
                }
                guard dollar || !isUsage(command) else { continue }
                var expected: [String]? = nil
                if dollar {
                    var output: [String] = []
                    while index < block.count, !block[index].text.hasPrefix("$ ") {
                        output.append(block[index].text)
                        index += 1
                    }
                    // A blank line parts one command's output from the next command.
                    while output.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { output.removeLast() }
                    expected = output
                }
                examples.append(Example(page: page, line: number, command: command, expected: expected))
            }
        }
        return examples
    }

    /// A line that names its arguments (`LOG`, `FILE.html`, `LOG1:SESSION:STEP`, `[--path PATH]`):
    /// how a verb is called, not an example.
    /// A shell comment after the command (`  # the timeline`) and a variable (`"$UPLOAD_TOKEN"`)
    /// name nothing.
    static func isUsage(_ command: String) -> Bool {
        let code = command.components(separatedBy: " #").first ?? command
        return code.split(separator: " ").contains { word in
            let letters = word.filter(\.isLetter)
            return !word.contains("$") && !letters.isEmpty && letters.allSatisfy(\.isUppercase)
        }
    }

    /// The page's code blocks, each line with its number, indentation removed.
    static func codeBlocks(_ text: String) -> [[(line: Int, text: String)]] {
        var blocks: [[(line: Int, text: String)]] = []
        var current: [(line: Int, text: String)]? = nil
        var fenced = false
        var previousBlank = true
        for (offset, raw) in text.components(separatedBy: "\n").enumerated() {
            let number = offset + 1
            if raw.hasPrefix("```") {
                if let block = current { blocks.append(block) }
                current = fenced ? nil : []
                fenced.toggle()
            } else if fenced {
                current?.append((number, raw))
            } else if raw.hasPrefix("    "), previousBlank || current != nil {
                if current == nil { current = [] }
                current?.append((number, String(raw.dropFirst(4))))
            } else if !raw.trimmingCharacters(in: .whitespaces).isEmpty, let block = current {
                blocks.append(block)
                current = nil
            }
            previousBlank = raw.trimmingCharacters(in: .whitespaces).isEmpty
        }
        if let current, !fenced { blocks.append(current) }
        return blocks.map { block in
            var block = block
            while block.last?.text.trimmingCharacters(in: .whitespaces).isEmpty == true { block.removeLast() }
            return block
        }
    }

    /// Whether `actual` is what the page printed: equal lines, `…` alone for any lines, `…`
    /// inside a line for any text. Trailing spaces are not compared.
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        func trimmed(_ line: String) -> String {
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        func lineMatches(_ pattern: String, _ line: String) -> Bool {
            let pattern = normalized(trimmed(pattern)), line = normalized(trimmed(line))
            guard pattern.contains("…") else { return pattern == line }
            let parts = pattern.components(separatedBy: "…")
            guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]) else { return false }
            var rest = line.dropFirst(parts[0].count)
            for part in parts.dropFirst().dropLast() {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return rest.count >= parts[parts.count - 1].count
        }
        func match(_ e: ArraySlice<String>, _ a: ArraySlice<String>) -> Bool {
            guard let first = e.first else { return a.isEmpty }
            if trimmed(first) == "…" {
                return (a.startIndex...a.endIndex).contains { match(e.dropFirst(), a[$0...]) }
            }
            guard let line = a.first, lineMatches(first, line) else { return false }
            return match(e.dropFirst(), a.dropFirst())
        }
        return match(expected[...], actual[...])
    }

    /// The pages, from the package's folder: docs/cli's and the README.
    static var pages: [String] {
        let folder = root.appendingPathComponent("docs/cli")
        let cli = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return cli.map { "docs/cli/\($0)" } + ["README.md"]
    }

    @Test(arguments: pages)
    func everyExampleRunsAsPrinted(page: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
        let examples = Self.examples(in: page, text: text).filter { Self.cannotRunHere[$0.command] == nil }
        guard !examples.isEmpty else { return }
        let folder = try TemporaryDirectory()
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/rewind", withDestinationPath: RewindBinary.url.path)
        let environment = ["PATH": bin + ":/usr/bin:/bin", "NO_COLOR": "1"]
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let demo = try RewindBinary.run(["demo", "--output", "demo.rewind"], in: work, environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        // The committed recordings too, whose identities are fixed (`replay --shard`).
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("recordings"), to: work.appendingPathComponent("recordings"))
        for example in examples {
            let result = try RewindBinary.run(
                ["-c", "{ \(example.command)\n} 2>&1"], in: work, environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
            let status = Self.exitStatus[example.command] ?? 0
            #expect(result.status == status, "\(example) exited with \(result.status), not \(status):\n\(result.stdout)")
            guard let expected = example.expected else { continue }
            var actual = result.stdout.components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            #expect(
                Self.matches(expected, actual),
                "\(example) prints otherwise than the page says:\n--- the page\n\(expected.joined(separator: "\n"))\n--- rewind\n\(actual.joined(separator: "\n"))"
            )
        }
    }

    /// Each line skipped by name is still on its page: the list cannot hide a line that is gone.
    @Test func everyLineSkippedByNameIsOnItsPage() throws {
        let all = try Self.pages.flatMap { page in
            Self.examples(in: page, text: try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8))
        }
        for command in Self.cannotRunHere.keys {
            #expect(all.contains { $0.command == command }, "\(command) is no longer in the docs")
        }
        #expect(all.count >= 60)
    }

    /// README: "Every command takes `--help` with an example", subcommands too.
    @Test func everyCommandsHelpHasAnExample() throws {
        func paths(_ command: any ParsableCommand.Type, _ prefix: [String]) -> [[String]] {
            let name = command._commandName
            let path = prefix + [name]
            return [path] + command.configuration.subcommands.flatMap { paths($0, path) }
        }
        let commands = RootCommand.configuration.subcommands.flatMap { paths($0, []) }
        #expect(commands.count >= 23)
        for command in commands {
            let help = try RewindBinary.run(command + ["--help"])
            #expect(help.status == 0, "rewind \(command.joined(separator: " ")) --help")
            #expect(help.stdout.contains("Example"), "rewind \(command.joined(separator: " ")) --help has no example")
        }
    }

    @Test func theReaderFindsCommandsOutputsAndUsageLines() {
        let page = """
            # x

                rewind log LOG [--session S]

            Some text.

                $ rewind sessions demo.rewind
                #  name
                …

            ```
            $ printf 'a\\nb\\n' \\
                | rewind step demo.rewind
            line
            $ rewind check demo.rewind
            ```

                rewind export demo.rewind --output demo.jsonl
            """
        let found = Self.examples(in: "x.md", text: page)
        #expect(
            found.map(\.command) == [
                "rewind sessions demo.rewind", "printf 'a\\nb\\n' | rewind step demo.rewind", "rewind check demo.rewind",
                "rewind export demo.rewind --output demo.jsonl",
            ])
        #expect(found.map(\.expected) == [["#  name", "…"], ["line"], [], nil])
        #expect(found.map(\.line) == [7, 12, 15, 18])
    }

    @Test func timesAndIdentitiesOfTheRunAreNotCompared() {
        #expect(Self.matches(["1  login  2027-01-15 08:00:00  3.400s"], ["1  login  2026-11-29 00:03:51  3.400s"]))
        #expect(
            Self.matches(
                [#"{"started_at":1800000000.0,"uuid":"F198C477-F5F4-41BD-BE67-4AC5C7F071E9"}"#],
                [#"{"started_at":1795910629.14,"uuid":"05C23523-5AF2-461E-879C-BD4C744A1466"}"#]))
        #expect(!Self.matches(["1  login  2027-01-15 08:00:00  3.400s"], ["1  login  2026-11-29 00:03:51  3.401s"]))
    }

    @Test func outputsMatchWithEllipses() {
        #expect(Self.matches(["a", "…"], ["a", "b", "c"]))
        #expect(Self.matches(["a", "…", "c"], ["a", "b", "c"]))
        #expect(Self.matches(["a", "…"], ["a"]))
        #expect(!Self.matches(["a", "c"], ["a", "b", "c"]))
        #expect(Self.matches(["x: … end"], ["x: anything end"]))
        #expect(!Self.matches(["x: … end"], ["x: anything else"]))
        #expect(Self.matches(["a  "], ["a"]))
        #expect(!Self.matches(["a"], ["a", "b"]))
    }
}
