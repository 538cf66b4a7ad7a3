import Foundation
import RewindCore
import Testing

@testable import RewindLog

/// A copy registered under a name is what readers opened at that name read, and what they name
/// is the name; once it is unregistered, the name is a path again.
@Suite struct LocalCopiesTests {
    @Test func aReaderOpenedAtACopysNameReadsTheCopyAndNamesTheName() throws {
        let folder = try TemporaryDirectory()
        let file = folder.path("copy.rewind")
        let recorder = Recorder<Int, Tick>(sink: try SQLiteSink(path: file), session: SessionDescriptor(name: "copied", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...3 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        let name = "postgres://rewind@127.0.0.1:1/copies-\(UUID().uuidString)"
        LocalCopies.register(file, as: name)
        let reader = try LogReader(path: name)
        #expect(reader.path == name && reader.file == file)
        let session = try reader.session(nil)
        #expect(session.name == "copied" && session.lastStep == 3)
        #expect(try reader.state(of: session, at: 2) == .int(2))
        #expect(throws: LogError(.noSuchStep, path: name, session: 1, step: 9, "step 9 is out of range: session #1 (copied) has steps 0 through 3")) {
            try reader.checkStep(9, in: session)
        }
        LocalCopies.unregister(name)
        #expect(LocalCopies.file(standingFor: name) == nil)
        #expect(throws: LogError.noFile(at: name)) { try LogReader(path: name) }
    }

    /// The table is shared by every reader of the process (a replay's chunks open the copy on
    /// threads of their own): run under the thread sanitizer in CI.
    @Test func copiesAreRegisteredAndFoundFromManyThreadsAtOnce() async {
        let names = (0..<8).map { "postgres://rewind@127.0.0.1:1/threads-\($0)-\(UUID().uuidString)" }
        await withTaskGroup(of: Bool.self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    var found = true
                    for round in 0..<500 {
                        let file = "/tmp/copy-\(index)-\(round).rewind"
                        LocalCopies.register(file, as: name)
                        found = found && LocalCopies.file(standingFor: name) == file
                        LocalCopies.unregister(name)
                        found = found && LocalCopies.file(standingFor: name) == nil
                    }
                    return found
                }
            }
            for await found in group { #expect(found) }
        }
    }
}
