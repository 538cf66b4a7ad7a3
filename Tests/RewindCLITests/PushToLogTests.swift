import Foundation
import Testing

/// `rewind push LOG --to OTHER.rewind`: a log takes another log's sessions through the one way
/// into a store, as a team store does, and needs no server.
@Suite struct PushToLogTests {
    @Test func aLogPushedIntoAnotherIsTakenWholeThenHeld() throws {
        let demo = try DemoLogFile()
        let target = demo.folder.path("merged.rewind")
        let first = try demo.run(["push", demo.path, "--to", target])
        #expect(first.status == 0, "\(first.stderr)")
        let pushed = first.stdout.split(separator: "\n")
        #expect(pushed.count == 7 && pushed.allSatisfy { $0.hasPrefix("pushed \(demo.path) #") && $0.hasSuffix(" steps") }, "\(first.stdout)")
        let again = try demo.run(["push", demo.path, "--to", target])
        #expect(again.status == 0, "\(again.stderr)")
        let held = again.stdout.split(separator: "\n")
        #expect(held.count == 7 && held.allSatisfy { $0.hasPrefix("already in the store: \(demo.path) #") }, "\(again.stdout)")
        // The copy holds the same steps, states and effects as the log it came from.
        let source = try RewindBinary.run(["export", demo.path])
        let copied = try RewindBinary.run(["export", target])
        #expect(copied.status == 0 && copied.stdout == source.stdout && !source.stdout.isEmpty)
        #expect(try RewindBinary.run(["check", target]).status == 0)
    }
}
