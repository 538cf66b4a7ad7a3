import Foundation
import RewindBench

// rewind-recording-probe MODE STEPS DIRECTORY, MODE one of `modes` below: see `RecordingProbe`.
// A synchronous main on purpose: valgrind 3.19 crashes in the asynchronous main's idle loop.
let arguments = CommandLine.arguments
let modes = ["rewind", "rewind-replay", "naive", "dispatch", "dispatch-recording", "large", "large-replica", "large-replay"]
guard arguments.count == 4, modes.contains(arguments[1]), let steps = Int(arguments[2]), steps > 0 else {
    FileHandle.standardError.write(Data("usage: rewind-recording-probe (\(modes.joined(separator: "|"))) STEPS DIRECTORY\n".utf8))
    exit(64)
}
do {
    try MainActor.assumeIsolated {
        let mode = arguments[1]
        if mode.hasPrefix("dispatch") {
            try RecordingProbe.dispatch(steps: steps, recordingIn: mode == "dispatch" ? nil : arguments[3])
        } else if mode.hasPrefix("large") {
            try RecordingProbe.recordLarge(
                steps: steps, replicating: mode == "large-replica", replaying: mode == "large-replay", in: arguments[3])
        } else if mode == "rewind-replay" {
            try RecordingProbe.recordAndReplay(steps: steps, in: arguments[3])
        } else {
            try RecordingProbe.record(steps: steps, naive: mode == "naive", in: arguments[3])
        }
    }
} catch {
    FileHandle.standardError.write(Data("rewind-recording-probe: \(error)\n".utf8))
    exit(1)
}
