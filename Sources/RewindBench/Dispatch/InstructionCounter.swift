import Foundation

/// Counts the instructions a recorded login step costs over all threads, under valgrind's
/// callgrind: unlike seconds, the count does not move with the machine's load.
///
/// It runs `rewind-recording-probe` (built beside `rewind` by `swift build`) from a copy
/// stripped of its debugging information (`strip -S`: valgrind 3.19 cannot read the DWARF 5
/// that Swift writes; the symbols stay, for `--toggle-collect`), at two numbers of
/// steps; the difference over the extra steps leaves out starting the process.
struct InstructionCounter {
    let valgrind: String
    /// The stripped copy of the probe.
    let probe: String
    let folder: String
    /// Steps of the shorter run; the longer one records twice as many.
    let steps: Int

    /// Why the count cannot be taken here, or the counter.
    static func make(probeBeside executable: String, folder: String, steps: Int) -> Result<InstructionCounter, BenchmarkError> {
        let original = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("rewind-recording-probe").path
        guard FileManager.default.isExecutableFile(atPath: original) else {
            return .failure(BenchmarkError("no rewind-recording-probe beside rewind (build every product: swift build -c release)"))
        }
        guard let valgrind = Executables.find("valgrind"), let strip = Executables.find("strip") else {
            return .failure(BenchmarkError("valgrind or strip is not installed"))
        }
        let probe = folder + "/rewind-recording-probe"
        do {
            try? FileManager.default.removeItem(atPath: probe)
            try FileManager.default.copyItem(atPath: original, toPath: probe)
            try ChildProcess.run(strip, ["-S", probe])
        } catch {
            return .failure(BenchmarkError("could not make a stripped copy of the probe: \(error)"))
        }
        return .success(InstructionCounter(valgrind: valgrind, probe: probe, folder: folder, steps: steps))
    }

    /// Instructions per step of `recorder` (`rewind` or `naive`).
    func instructionsPerStep(_ recorder: String) throws -> Double {
        let short = try count(recorder, steps: steps)
        let long = try count(recorder, steps: 2 * steps)
        return Double(long - short) / Double(steps)
    }

    /// Instructions of one dispatch at a human pace on the dispatching thread alone, on a state
    /// of `photos` photos, recorded the way an app records or `plain`: callgrind counts only
    /// inside `RecordingProbe.idleDispatch`, which each dispatch goes through.
    func instructionsPerIdleDispatch(photos: Int, plain: Bool) throws -> Double {
        let mode = plain ? "large-idle-plain" : "large-idle"
        let options = ["--toggle-collect=*idleDispatch*"]
        let short = try count(mode, steps: steps / 10, photos: photos, options: options)
        let long = try count(mode, steps: 2 * (steps / 10), photos: photos, options: options)
        return Double(long - short) / Double(steps / 10)
    }

    /// Instructions of one login dispatch on the dispatching thread alone, recorded the way an
    /// app records or `plain`, in bursts as `rewind bench` times them: callgrind counts only
    /// inside `RecordingProbe.countedDispatch`.
    func instructionsPerDispatch(plain: Bool) throws -> Double {
        let mode = plain ? "dispatch-counted-plain" : "dispatch-counted"
        let options = ["--toggle-collect=*countedDispatch*"]
        let short = try count(mode, steps: steps, options: options)
        let long = try count(mode, steps: 2 * steps, options: options)
        return Double(long - short) / Double(steps)
    }

    /// Instructions of one diff of two states of `photos` photos encoded apart, one title
    /// changed, as `diff_large_ms` times it: callgrind counts only inside `JSONDiff.changes`.
    func instructionsPerDiff(photos: Int) throws -> Double {
        let times = 10
        let options = ["--toggle-collect=*JSONDiff*changes*"]
        let short = try count("diff", steps: times, photos: photos, options: options)
        let long = try count("diff", steps: 2 * times, photos: photos, options: options)
        return Double(long - short) / Double(times)
    }

    private func count(_ mode: String, steps: Int, photos: Int? = nil, options: [String] = []) throws -> Int {
        let directory = folder + "/probe-\(mode)-\(steps)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments =
            ["--tool=callgrind", "--callgrind-out-file=/dev/null"] + options + [probe, mode, String(steps), directory]
            + (photos.map { [String($0)] } ?? [])
        let output = try ChildProcess.run(valgrind, arguments)
        guard let collected = Self.collected(in: output) else {
            throw BenchmarkError("callgrind printed no instruction count for the \(mode) probe")
        }
        return collected
    }

    /// The count in callgrind's summary line, `==123== Collected : 158571146`.
    static func collected(in output: String) -> Int? {
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "Collected :") else { continue }
            return Int(line[range.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
