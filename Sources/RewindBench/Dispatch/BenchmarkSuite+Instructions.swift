import Foundation

extension BenchmarkSuite {
    /// Instructions per recorded login step over all threads, with Rewind's recorder and with
    /// the naive one (`InstructionCounter`); left out, with the reason in the result's notes,
    /// where the machine cannot count them.
    func measureInstructions(into result: inout BenchmarkResult) throws {
        switch InstructionCounter.make(probeBeside: CommandLine.arguments[0], folder: folder.path, steps: quick ? 200 : 2_000) {
        case let .failure(reason):
            result.notes.append("instructions per step left out: \(reason)")
        case let .success(counter):
            result.add(
                "instructions_per_step_small", try counter.instructionsPerStep("rewind"), "instructions per recorded login step, all threads",
                baseline: "naive_instructions_per_step_small")
            result.add("naive_instructions_per_step_small", try counter.instructionsPerStep("naive"), "instructions per step, naive recorder, login")
            // DESIGN 7's dispatch ratio, counted: by the clock it was 2.25-2.83 in three runs of
            // one build (issue 62); these counts do not move between runs.
            let plain = try counter.instructionsPerDispatch(plain: true)
            let recorded = try counter.instructionsPerDispatch(plain: false)
            result.add("instructions_dispatch_plain", plain, "instructions of a login dispatch, no recording")
            result.add(
                "instructions_dispatch_recording", recorded, "instructions of a login dispatch recorded as an app records, dispatching thread",
                baseline: "instructions_dispatch_plain")
            result.add(
                "ratio_instructions_dispatch", recorded / max(1, plain),
                "ratio: instructions of a recorded login dispatch / a plain one, dispatching thread (×)", atMost: 2)
            // `diff_large_ms` by the clock moved from 0.65 to 1.07 ms between runs of one build.
            result.add(
                "instructions_diff_large", try counter.instructionsPerDiff(photos: photoCount),
                "instructions of a diff of two \(photoCount)-photo states, one change")
        }
    }

    /// Instructions on the dispatching thread of one dispatch at a human pace, recorded and
    /// plain, at `photoCount` and ten times as many photos: the clock's figures of that case
    /// move by half between runs, these do not.
    ///
    /// Left out of a quick run: its eight runs under callgrind took 45 s of a 75 s quick run
    /// of a debug build (`BenchCommandTests`).
    func measureIdleInstructions(into result: inout BenchmarkResult) throws {
        guard !quick else {
            result.notes.append("instructions per idle dispatch left out of a quick run")
            return
        }
        switch InstructionCounter.make(probeBeside: CommandLine.arguments[0], folder: folder.path, steps: 2_000) {
        case let .failure(reason):
            result.notes.append("instructions per idle dispatch left out: \(reason)")
        case let .success(counter):
            for (key, photos) in [("large", photoCount), ("xlarge", xlargePhotoCount)] {
                let plain = try counter.instructionsPerIdleDispatch(photos: photos, plain: true)
                let recorded = try counter.instructionsPerIdleDispatch(photos: photos, plain: false)
                result.add("instructions_idle_dispatch_plain_\(key)", plain, "instructions of a dispatch, \(photos) photos, no recording")
                result.add(
                    "instructions_idle_dispatch_\(key)", recorded, "instructions of a dispatch, \(photos) photos, recorder idle, dispatching thread",
                    baseline: "instructions_idle_dispatch_plain_\(key)")
                result.add(
                    "ratio_instructions_idle_dispatch_\(key)", recorded / max(1, plain),
                    "ratio: instructions of a dispatch with an idle recorder / without, \(photos) photos (×)", atMost: 3)
            }
            guard let large = result["instructions_idle_dispatch_large"], let xlarge = result["instructions_idle_dispatch_xlarge"] else { return }
            // Flat in the state's size: nothing on the dispatching thread walks the arrays.
            result.add(
                "ratio_instructions_idle_dispatch_xlarge_large", xlarge / max(1, large),
                "ratio: instructions of an idle recorder's dispatch, 10× the photos / 1× (×)", atMost: 1.5)
        }
    }
}
