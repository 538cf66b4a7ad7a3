import Foundation
import PhotoApp
import RewindCLI
import RewindReplay
import Testing

/// Command lines that run at once in one process, as an app's tests run its own beside a
/// planted one: each command reads its own command line's flows.
@Suite struct CommandLineContextTests {
    @Test func commandLinesRunningAtOnceEachReplayWithTheirOwnFlows() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("random.rewind")
        try await MinimizeCommandTests.recordRandomLogin(steps: 2_000, seed: 3, into: log)
        let clean = RewindCommandLine(commandName: "clean", flows: SeedFlows.registry)
        let planted = RewindCommandLine(commandName: "planted", flows: MinimizeCommandTests.planted)
        let statuses = await withTaskGroup(of: (String, Int32).self) { group in
            for round in 0..<40 {
                let commandLine = round.isMultiple(of: 2) ? clean : planted
                group.addTask { (commandLine.commandName, await commandLine.run(["replay", log])) }
            }
            return await group.reduce(into: [String: [Int32]]()) { $0[$1.0, default: []].append($1.1) }
        }
        #expect(statuses["clean"] == Array(repeating: 0, count: 20))
        #expect(statuses["planted"] == Array(repeating: 1, count: 20))
    }
}
