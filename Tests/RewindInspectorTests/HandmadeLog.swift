import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// Writes sessions through `SQLiteSink` by hand: gaps where a test wants them, sessions that
/// never end, and the faults a recorder never makes (a wrong digest, a missing keyframe, a
/// secret in clear), for export, import and check to meet.
struct HandmadeLog {
    /// One step to write: its state and, to break the log, a wrong digest or a storage choice.
    struct Step {
        var step: Int
        var state: JSONValue
        var action: JSONValue
        var keyframe: Bool? = nil
        var digest: StateDigest? = nil
    }

    let sink: SQLiteSink

    init(path: String) throws {
        sink = try SQLiteSink(path: path)
    }

    /// A login-like state whose password is a placeholder of `length`, or in clear.
    static func login(_ username: String, password length: Int, clear: String? = nil) -> JSONValue {
        ["username": .string(username), "password": clear.map(JSONValue.string) ?? ["$redacted": .int(length)], "status": "idle"]
    }

    /// The action that typed `username`.
    static func typed(_ username: String) -> JSONValue {
        ["didUpdateUsername": ["_0": .string(username)]]
    }

    /// Writes a session of `steps` with `gaps`, `secondsPerStep` apart; ends it unless `ended`
    /// is false. Steps are stored as a recorder stores them (a keyframe first and after each
    /// gap) unless a step says otherwise.
    @discardableResult
    func session(
        _ name: String?, start: Date = .testEpoch, initial: JSONValue = login("", password: 0),
        steps: [Step], gaps: [RecordingGap] = [], ended: Bool = true, secondsPerStep: Double = 0.25
    ) throws -> Int {
        let number = try sink.beginSession(
            SessionHeader(
                name: name, flow: "login", startedAt: start, schemaVersion: 1, initialState: initial,
                initialDigest: initial.digest, redactedPaths: ["password", "action.didUpdatePassword._0"]
            ))
        var previous = initial, previousStep = 0
        var events: [RecordedEvent] = []
        for step in steps {
            let afterGap = gaps.contains { $0.steps.upperBound < step.step && $0.steps.upperBound >= previousStep }
            let keyframe = step.keyframe ?? (previousStep == 0 || afterGap)
            events.append(
                RecordedEvent(
                    step: step.step, time: start.addingTimeInterval(Double(step.step) * secondsPerStep), origin: "login",
                    actionName: "didUpdateUsername", action: step.action, cause: step.step == 2 ? 1 : nil,
                    outputs: step.step == 3 ? [["loginSucceeded": ["_0": "alice"]]] : [], effects: RecordedEffects(),
                    digest: step.digest ?? step.state.digest,
                    state: keyframe ? .keyframe(step.state) : .patch(.between(previous, step.state))
                ))
            previous = step.state
            previousStep = step.step
        }
        try sink.append(events, gaps: gaps, redactedPaths: [], to: number)
        if ended { try sink.endSession(number) }
        return number
    }

    /// Steps typing `alice` one letter at a time, numbered `steps`.
    static func typing(_ steps: ClosedRange<Int>) -> [Step] {
        steps.map { step in
            let name = String(repeating: "a", count: step)
            return Step(step: step, state: login(name, password: 0), action: typed(name))
        }
    }

    func close() throws {
        try sink.close()
    }

    /// A log with two sessions: `gappy`, whose steps 4 through 6 were lost and which never
    /// ended, and `tail-gap`, which lost its last two steps and ended.
    static func withGaps(at path: String) throws {
        let log = try HandmadeLog(path: path)
        try log.session(
            "gappy", steps: typing(1...3) + typing(7...9),
            gaps: [RecordingGap(steps: 4...6, reason: "the recorder's queue was full: its encoder thread fell behind")],
            ended: false
        )
        try log.session(
            "tail-gap", steps: typing(1...2),
            gaps: [RecordingGap(steps: 3...4, reason: "the log could not be written")]
        )
        try log.close()
    }
}
