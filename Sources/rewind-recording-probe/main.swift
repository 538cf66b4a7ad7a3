import Foundation
import RewindBench

// rewind-recording-probe MODE STEPS DIRECTORY [PHOTOS], MODE one of `modes` below: see
// `RecordingProbe`. PHOTOS (1,000 unless given) is the state's size in the `large` modes and `diff`.
// A synchronous main on purpose: valgrind 3.19 crashes in the asynchronous main's idle loop.
let arguments = CommandLine.arguments
let modes = [
    "rewind", "rewind-store", "rewind-replay", "naive", "dispatch", "dispatch-recording", "large", "large-explicit", "large-replay", "large-idle",
    "large-idle-plain", "dispatch-counted", "dispatch-counted-plain", "diff",
]
let photos = arguments.count == 5 ? Int(arguments[4]) : 1_000
guard (4...5).contains(arguments.count), modes.contains(arguments[1]), let steps = Int(arguments[2]), steps > 0,
    let photos, photos > 0
else {
    FileHandle.standardError.write(Data("usage: rewind-recording-probe (\(modes.joined(separator: "|"))) STEPS DIRECTORY [PHOTOS]\n".utf8))
    exit(64)
}
do {
    try MainActor.assumeIsolated {
        let mode = arguments[1]
        if mode == "diff" {
            try RecordingProbe.diffLarge(times: steps, photos: photos)
        } else if mode.hasPrefix("dispatch-counted") {
            try RecordingProbe.dispatchCounted(steps: steps, plain: mode == "dispatch-counted-plain", in: arguments[3])
        } else if mode.hasPrefix("dispatch") {
            try RecordingProbe.dispatch(steps: steps, recordingIn: mode == "dispatch" ? nil : arguments[3])
        } else if mode.hasPrefix("large-idle") {
            try RecordingProbe.dispatchIdle(steps: steps, photos: photos, plain: mode == "large-idle-plain", in: arguments[3])
        } else if mode.hasPrefix("large") {
            try RecordingProbe.recordLarge(
                steps: steps, photos: photos, explicit: mode == "large-explicit", replaying: mode == "large-replay", in: arguments[3])
        } else if mode == "rewind-store" {
            try RecordingProbe.recordThroughStore(steps: steps, in: arguments[3])
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
