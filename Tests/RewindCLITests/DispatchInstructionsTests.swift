import Foundation
import RewindTestSupport
import RewindWebDriver
import Testing

/// The instructions of a login dispatch on the dispatching thread, recorded the way an app
/// records and plain, counted by valgrind's callgrind in `rewind-recording-probe` (built beside
/// the tests) inside `RecordingProbe.countedDispatch` alone: counts, not seconds, so that a
/// hand-off that grows fails here, which the clock, moving by a third between runs, cannot
/// tell. The difference between 1,000 and 2,000 dispatches leaves out what runs once.
///
/// The tests run a debug build, whose counts are not the release build's that `rewind bench`
/// reports (`instructions_dispatch_recording`, `ratio_instructions_dispatch`): the ceilings
/// here are the debug build's, measured when the hand-off was last cut (docs/performance.md,
/// "The dispatching thread, counted").
@Suite struct DispatchInstructionsTests {
    static let valgrind = onPath("valgrind")
    static let strip = onPath("strip")
    static let isRequired = ProcessInfo.processInfo.environment["REWIND_REQUIRE_VALGRIND"] == "1"

    /// The debug build's counts when the hand-off was last cut (2026-12-03: 15,310-15,854
    /// recorded and 10,277-10,692 plain in three runs, moved by the recorder's thread asking for
    /// a state now and then, and by what else the machine ran). The ceilings are a tenth over.
    static let measuredRecorded = 15_615.0
    static let measuredPlain = 10_692.0

    @Test(.enabled(if: (valgrind != nil && strip != nil) || isRequired, "needs valgrind and strip: apt-get install valgrind binutils"))
    func aRecordedLoginDispatchCostsTheDispatchingThreadNoMoreThanMeasured() throws {
        let folder = try TemporaryDirectory()
        let probe = try Self.strippedProbe(in: folder)
        let recorded = try Self.instructionsPerDispatch(probe: probe, mode: "dispatch-counted", in: folder)
        let plain = try Self.instructionsPerDispatch(probe: probe, mode: "dispatch-counted-plain", in: folder)
        print("instructions a login dispatch, debug build: \(recorded) recorded, \(plain) plain, \(recorded / plain)×")
        #expect(recorded <= Self.measuredRecorded * 1.1, "a recorded dispatch took \(recorded) instructions, past \(Self.measuredRecorded) + 10 %")
        #expect(plain <= Self.measuredPlain * 1.1, "a plain dispatch took \(plain) instructions, past \(Self.measuredPlain) + 10 %")
        // Both counts are of real work: a probe that dispatched nothing would pass the ceilings.
        #expect(recorded > plain)
        #expect(plain > Self.measuredPlain * 0.5)
    }

    /// Where `program` is on the `PATH`, if it is.
    static func onPath(_ program: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A copy of the probe without its debugging information: valgrind 3.19 cannot read the
    /// DWARF 5 that Swift writes (`strip -S` keeps the symbols `--toggle-collect` names).
    static func strippedProbe(in folder: TemporaryDirectory) throws -> String {
        let original = RewindBinary.url(of: "rewind-recording-probe").path
        #expect(FileManager.default.isExecutableFile(atPath: original), "no rewind-recording-probe beside the tests")
        let probe = folder.path("rewind-recording-probe")
        try FileManager.default.copyItem(atPath: original, toPath: probe)
        let (status, output) = try SpawnedProcess.run(try #require(strip), ["-S", probe])
        try #require(status == 0, "strip -S failed: \(output)")
        return probe
    }

    static func instructionsPerDispatch(probe: String, mode: String, in folder: TemporaryDirectory) throws -> Double {
        func count(_ steps: Int) throws -> Int {
            let directory = folder.path("\(mode)-\(steps)")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            let (status, output) = try SpawnedProcess.run(
                try #require(valgrind),
                ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=*countedDispatch*", probe, mode, String(steps), directory])
            try #require(status == 0, "valgrind \(mode) \(steps) failed: \(output)")
            let line = try #require(output.split(separator: "\n").first { $0.contains("Collected :") }, "no count in: \(output)")
            return try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        }
        let short = try count(1_000)
        let long = try count(2_000)
        return Double(long - short) / 1_000
    }
}
