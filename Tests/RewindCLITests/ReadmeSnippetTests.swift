import Foundation
import Testing

/// The README's snippets of an app's code are that app's code: each block marked
/// `<!-- snippet: PATH -->` stands, line for line, in the file at PATH, which CI builds.
@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each marked block: the file it names and its lines.
    static func snippets() throws -> [(path: String, lines: [String])] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var snippets: [(String, [String])] = []
        var lines = readme.components(separatedBy: "\n")[...]
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
        #expect(snippets.count >= 7)
        for (path, body) in snippets {
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
            let found = (0...max(0, file.count - body.count)).contains { start in
                Array(file[start..<min(file.count, start + body.count)]) == body
            }
            #expect(found, "README's snippet of \(path) is not in that file:\n\(body.joined(separator: "\n"))")
        }
    }
}
