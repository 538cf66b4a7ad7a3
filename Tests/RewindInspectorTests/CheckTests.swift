import Foundation
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import Testing

@MainActor
@Suite struct CheckTests {
    private typealias Step = HandmadeLog.Step

    /// Writes one session of `steps` (and `gaps`) into a fresh log and checks it.
    private func check(_ steps: [Step], gaps: [RecordingGap] = [], in folder: TemporaryDirectory) throws -> SessionCheck {
        let path = folder.path("bad.rewind")
        let log = try HandmadeLog(path: path)
        try log.session("bad", steps: steps, gaps: gaps)
        try log.close()
        let report = try LogChecker(path: path).check(nil)
        #expect(report.integrity.status == .ok)
        return try #require(report.sessions.first)
    }

    private func result(_ name: String, of check: SessionCheck) -> CheckResult? {
        check.results.first { $0.name == name }
    }

    /// A session of format 5 stores digests that chain an array's elements: `check` takes its
    /// states' digests by that rule, which the committed recordings, of format 5, test. The
    /// photo list's states have arrays, so the rule of format 6 would not match them.
    @Test func aSessionOfFormatFiveIsCheckedByItsChainedDigests() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("recordings/photos-happy-browse.rewind").path
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.formatVersion == 5 && session.digestRule == .chained)
        #expect(try LogChecker(path: path).check(nil).passed)
        var summedMatches = 0
        for event in try reader.events(of: session, steps: 1...session.lastStep) {
            let state = try reader.state(of: session, at: event.step)
            #expect(state.digest(by: .chained) == event.digest)
            if state.digest(by: .summed) == event.digest { summedMatches += 1 }
        }
        #expect(summedMatches == 0)
    }

    @Test func theDemoLogPassesEveryCheck() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let report = try LogChecker(path: path).check(nil)
        #expect(report.passed)
        #expect(report.problems == 0 && report.warnings == 0)
        #expect(report.allResults.count == 1 + 7 * 6)
        let login = try LogChecker(path: path).check("login-happy")
        #expect(
            CheckRenderer().render(login) == [
                path,
                "  integrity  ok       PRAGMA integrity_check (whole file): ok",
                "#1 (login-happy), login flow",
                "  checksums  ok       every row matches its checksum (2 rows)",
                "  steps      ok       20 steps recorded of 1 through 20, none missing",
                "  gaps       ok       no gap marker",
                "  states     ok       every state rebuilds and matches its digest (21 states, step 0 included)",
                "  keyframes  ok       1 keyframe",
                "  secrets    ok       action.didUpdatePassword._0, password: a placeholder wherever present, at every step",
                "check passed: 1 session, 7 checks, 0 problems, 0 warnings",
            ])
    }

    @Test func gapMarkersAreWarningsThatDoNotFailTheCheck() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let report = try LogChecker(path: path).check(nil)
        #expect(report.passed)
        #expect(report.warnings == 2)
        #expect(
            CheckRenderer().render(report).dropFirst(2) == [
                "#1 (gappy), login flow",
                "  checksums  ok       every row matches its checksum (4 rows)",
                "  steps      ok       6 steps recorded of 1 through 9, the others covered by gap markers",
                "  gaps       warning  1 gap marker: 3 steps not recorded, as the recorder said",
                "      - steps 4 through 6: the recorder's queue was full: its encoder thread fell behind",
                "  states     ok       every state rebuilds and matches its digest (7 states, step 0 included)",
                "  keyframes  ok       2 keyframes; the first step after each gap is one",
                "  secrets    ok       action.didUpdatePassword._0, password: a placeholder wherever present, at every step",
                "#2 (tail-gap), login flow",
                "  checksums  ok       every row matches its checksum (3 rows)",
                "  steps      ok       2 steps recorded of 1 through 2, the others covered by gap markers",
                "  gaps       warning  1 gap marker: 2 steps not recorded, as the recorder said",
                "      - steps 3 through 4: the log could not be written",
                "  states     ok       every state rebuilds and matches its digest (3 states, step 0 included)",
                "  keyframes  ok       1 keyframe; the first step after each gap is one",
                "  secrets    ok       action.didUpdatePassword._0, password: a placeholder wherever present, at every step",
                "check passed: 2 sessions, 13 checks, 0 problems, 2 warnings",
            ])
    }

    @Test func aMissingStepWithoutAGapMarkerFailsAndTheStatesAfterItCannotBeRebuilt() throws {
        let folder = try TemporaryDirectory()
        let check = try check(HandmadeLog.typing(1...2) + HandmadeLog.typing(4...5), in: folder)
        #expect(check.status == .problem)
        #expect(result("steps", of: check)?.details == ["step 3 is missing and no gap marker covers it"])
        #expect(result("states", of: check)?.details == ["steps 4 through 5 cannot be rebuilt: step 4 stores a patch but step 3 is missing"])
    }

    @Test func aWrongDigestIsNamedByItsStep() throws {
        let folder = try TemporaryDirectory()
        var steps = HandmadeLog.typing(1...3)
        steps[1].digest = StateDigest(rawValue: 1)
        let check = try check(steps, in: folder)
        let actual = HandmadeLog.login("aa", password: 0).digest
        #expect(result("states", of: check)?.details == ["step 2: stored digest 0000000000000001, the rebuilt state's digest is \(actual)"])
        #expect(check.results.filter { $0.status == .problem }.map(\.name) == ["states"])
    }

    @Test func aClearSecretInTheStateOrTheActionFails() throws {
        let folder = try TemporaryDirectory()
        var steps = HandmadeLog.typing(1...3)
        steps[0].state = HandmadeLog.login("a", password: 0, clear: "hunter2")
        steps[2].action = ["didUpdatePassword": ["_0": "hunter2"]]
        let check = try check(steps, in: folder)
        #expect(
            result("secrets", of: check)?.details == [
                "step 1: a clear value at password",
                "step 3: a clear value at action.didUpdatePassword._0",
            ])
        #expect(check.results.filter { $0.status == .problem }.map(\.name) == ["secrets"])
    }

    @Test func aPatchRightAfterAGapFailsTheKeyframeCheck() throws {
        let folder = try TemporaryDirectory()
        var steps = HandmadeLog.typing(1...2) + HandmadeLog.typing(5...6)
        steps[2].keyframe = false
        let check = try check(steps, gaps: [RecordingGap(steps: 3...4, reason: "dropped")], in: folder)
        #expect(result("keyframes", of: check)?.details == ["step 5 is the first after a gap marker but stores a patch, not a keyframe"])
        #expect(result("steps", of: check)?.status == .ok)
        #expect(result("gaps", of: check)?.status == .warning)
    }

    @Test func aGapMarkerOverARecordedStepIsAProblem() throws {
        let folder = try TemporaryDirectory()
        let check = try check(HandmadeLog.typing(1...3), gaps: [RecordingGap(steps: 2...2, reason: "odd")], in: folder)
        #expect(result("gaps", of: check)?.status == .problem)
        #expect(result("gaps", of: check)?.details.first == "step 2 is recorded but the gap marker of steps 2 through 2 says it is missing")
    }

    @Test func theJSONReportHasEveryCheckOfEverySession() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let json = try JSONValue(parsing: try LogChecker(path: path).check("gappy").json.canonicalString)
        #expect(json["passed"] == true)
        #expect(json["warnings"] == 1)
        #expect(json["integrity.status"] == "ok")
        #expect(json["sessions[0].gaps"] == [["first_step": 4, "last_step": 6, "reason": "the recorder's queue was full: its encoder thread fell behind"]])
        #expect(json["sessions[0].status"] == "warning")
        for name in ["steps", "gaps", "states", "keyframes", "secrets"] {
            #expect(json[try JSONPath(parsing: "sessions[0].checks.\(name).status")] != nil, "\(name)")
        }
    }
}
