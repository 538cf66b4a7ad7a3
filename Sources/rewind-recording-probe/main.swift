import Foundation
import RewindBench

// rewind-recording-probe (rewind|naive) STEPS DIRECTORY: see `RecordingProbe`. A synchronous
// main on purpose: valgrind 3.19 crashes in the asynchronous main's idle loop.
let arguments = CommandLine.arguments
guard arguments.count == 4, ["rewind", "naive"].contains(arguments[1]), let steps = Int(arguments[2]), steps > 0 else {
    FileHandle.standardError.write(Data("usage: rewind-recording-probe (rewind|naive) STEPS DIRECTORY\n".utf8))
    exit(64)
}
do {
    try MainActor.assumeIsolated { try RecordingProbe.record(steps: steps, naive: arguments[1] == "naive", in: arguments[3]) }
} catch {
    FileHandle.standardError.write(Data("rewind-recording-probe: \(error)\n".utf8))
    exit(1)
}
