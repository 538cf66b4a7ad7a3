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
        }
    }
}
