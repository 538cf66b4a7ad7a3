import Foundation
import RewindInspector
import Testing

@testable import RewindCLI

/// The keys the docs name are the keys that work: `rewind step`'s on a terminal
/// (`StepKeypad`) and the report page's (its script's key map).
@Suite struct DocumentedKeysTests {
    static let root = DocumentedCommandTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// What a key of the hint is called there.
    static func keys(_ spelling: Substring) -> [KeyStroke] {
        spelling.split(separator: "/").map { key in
            switch key {
            case "→": .right
            case "←": .left
            default: .character(Character(String(key)))
            }
        }
    }

    /// Each item of the terminal's hint (`→/n next`, `g/G first/last`, `r rerun`) does what it
    /// says: its keys give the commands it names, in order.
    @Test func theTerminalsHintSaysWhatItsKeysDo() {
        let items = StepKeypad.hint.components(separatedBy: "  ")
        #expect(items.count == 10)
        for item in items {
            let parts = item.split(separator: " ", maxSplits: 1)
            let keys = Self.keys(parts[0])
            let words = parts[1].split(separator: "/").map(String.init)
            for (index, key) in keys.enumerated() {
                var keypad = StepKeypad()
                let word = words[min(index, words.count - 1)]
                let outcome = keypad.press(key)
                switch outcome {
                case let .run(command): #expect(command == word, "\(item): \(key) runs \(command)")
                case let .prompting(prompt): #expect(prompt.command == word, "\(item): \(key) opens \(prompt.command)")
                case .help: #expect(word == "keys", "\(item): \(key) shows the keys")
                default: Issue.record("\(item): \(key) does nothing")
                }
            }
        }
    }

    /// Where the docs show the terminal's hint, they show it whole, as the terminal prints it.
    @Test func theDocsShowTheTerminalsHintAsItIs() throws {
        var shown = 0
        for page in ["README.md", "docs/cli/step.md", "docs/cli.md"] {
            for line in try Self.text(page).components(separatedBy: "\n") where line.contains("→/n next") {
                #expect(line.trimmingCharacters(in: .whitespaces) == StepKeypad.hint, "\(page)")
                shown += 1
            }
        }
        #expect(shown >= 1)
    }

    /// The rows of step.md's table of keys, each key as `KeyStroke`s, and what the keypad does.
    @Test func stepsTableOfKeysIsTheKeypads() throws {
        let lines = try Self.text("docs/cli/step.md").components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "| key | does |"))
        let table = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
        let named: [String: KeyStroke] = [
            "`→`": .right, "`←`": .left, "`Home`": .home, "`End`": .end, "space": .character(" "), "Ctrl-C": .interrupt, "Ctrl-D": .endOfInput,
        ]
        var documented: [KeyStroke] = []
        #expect(table.count == 11)
        for row in table where !row.contains("`/` GLOB") && !row.contains("`j` N") {
            let keysColumn = row.split(separator: "|")[0]
            for key in keysColumn.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let stroke = named[key] ?? .character(Character(String(key.dropFirst().dropLast())))
                var keypad = StepKeypad()
                #expect(keypad.press(stroke) != .ignored, "step.md's \(key) does nothing")
                documented.append(stroke)
            }
        }
        for key in [
            KeyStroke.right, .left, .home, .end, .character("n"), .character("b"), .character("g"), .character("G"), .character("s"), .character("d"),
            .character("r"), .character("?"), .character("q"),
        ] {
            #expect(documented.contains(key), "step.md's table lacks \(key)")
        }
    }

    /// The report's keys: the page's script maps ← k (and ↑) to the previous step and → j
    /// (and ↓) to the next; the page, README, `report --help` and docs/cli/report.md say so.
    @Test func theReportsKeysAreTheScripts() throws {
        let script = try Self.text("Sources/RewindReport/Assets/report.js")
        func keys(moving step: String) -> Set<String> {
            Set(
                script.components(separatedBy: "\n").compactMap { line in
                    let line = line.trimmingCharacters(in: .whitespaces)
                    guard line.hasSuffix(": () => move(\(step)),") else { return nil }
                    return String(line.prefix { $0 != ":" })
                })
        }
        #expect(keys(moving: "-1") == ["ArrowLeft", "ArrowUp", "k"])
        #expect(keys(moving: "1") == ["ArrowRight", "ArrowDown", "j"])
        #expect(try Self.text("Sources/RewindReport/Assets/report.html").contains("← k previous · → j next ·"))
        let said = "← or k previous, → or j next"
        #expect(try Self.text("README.md").contains(said))
        #expect(try Self.text("docs/cli/report.md").replacingOccurrences(of: "\n  ", with: " ").contains(said))
        #expect(ReportCommand.configuration.discussion.contains(said))
    }
}
