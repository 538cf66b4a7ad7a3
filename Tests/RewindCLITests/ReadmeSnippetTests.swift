import Foundation
import Testing

/// The docs' snippets of an app's code are that app's code: each block marked
/// `<!-- snippet: PATH -->` in the README, docs/ or the DocC catalog stands, line for line, in
/// the file at PATH, which CI builds (tools/check-snippets compiles the other blocks).
@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The pages tools/check-snippets reads.
    static var pages: [String] {
        func markdown(in folder: String) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return ["README.md", "Examples/TodoApp/README.md"] + markdown(in: "docs") + markdown(in: "docs/cli")
            + markdown(in: "Sources/RewindCore/Documentation.docc")
    }

    /// Each marked block: the file it names and its lines.
    static func snippets() throws -> [(path: String, lines: [String])] {
        try pages.flatMap { try snippets(in: String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func snippets(in page: String) -> [(path: String, lines: [String])] {
        var snippets: [(String, [String])] = []
        var lines = page.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("<!-- snippet: "), line.hasSuffix(" -->") else { continue }
            let path = String(line.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
            guard lines.popFirst() == "```swift" else {
                Issue.record("the snippet of \(path) does not open a swift block")
                continue
            }
            var body: [String] = []
            while let next = lines.popFirst(), next != "```" { body.append(next) }
            snippets.append((path, body))
        }
        return snippets
    }

    @Test func everyMarkedSnippetIsTheExamplesCode() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 11)
        for (path, body) in snippets {
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
            let found = (0...max(0, file.count - body.count)).contains { start in
                Array(file[start..<min(file.count, start + body.count)]) == body
            }
            #expect(found, "the snippet of \(path) is not in that file:\n\(body.joined(separator: "\n"))")
        }
    }
}
