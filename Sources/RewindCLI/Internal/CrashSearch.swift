import Foundation
import RewindJSON
import RewindLog
import RewindReplay

/// `minimize --crash`: delta debugging where each try replays in a child process (this same
/// program, `minimize --attempt`), since a reducer that traps would end the search with it.
struct CrashSearch {
    let actions: RecordedActions
    /// This program, which the children run.
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-minimize-\(UUID().uuidString)")

    /// What one child did.
    struct Outcome {
        var crashed: Bool
        /// The index of the last step it started.
        var lastIndex: Int?
        /// What the program said as it stopped, like `Fatal error: Index out of range`.
        var message: String
    }

    func shrink(progress: @escaping (_ steps: Int, _ replays: Int) -> Void) throws(ShrinkError) -> ShrunkSession {
        let start = Date()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let allUsers = actions.userSteps
            let whole = try run(keeping: allUsers)
            guard whole.crashed, let crashIndex = whole.lastIndex else {
                throw ShrinkError(
                    .notShown, session: actions.session.label,
                    "session \(actions.session.label) replays without the reducer stopping the program: nothing to minimize")
            }
            let last = actions.steps[crashIndex].step
            var search = DeltaDebugging<Int>(
                test: { candidate in try run(keeping: candidate, through: last).crashed },
                progress: { current, tests in progress(current, tests + 1) })
            let kept = try search.minimize(allUsers.filter { $0 <= last })
            let final = try run(keeping: kept, through: last)
            guard final.crashed, let index = final.lastIndex else {
                throw ShrinkError(.notShown, session: actions.session.label, "the shortened session no longer stops the program")
            }
            let steps = Array(actions.keeping(users: Set(kept)).prefix(index + 1))
            // The steps before the trap are replayed here, safely: the child passed them. The
            // trapping step gave no state; it is stored as the state before it, unchanged.
            var states = try CandidateReplay(Array(steps.dropLast()), of: actions, goal: .crashing).states
            states.append(states.last ?? actions.initialState)
            return ShrunkSession(
                actions: actions, steps: steps, states: states, finding: .crashed(index: index, message: final.message),
                originalSteps: actions.steps.count, replays: search.tests + 2, duration: Date().timeIntervalSince(start))
        } catch let error as ShrinkError {
            throw error
        } catch {
            throw ShrinkError(.cannotReplay, session: actions.session.label, "\(error)")
        }
    }

    /// Runs a child that replays `users` and what they caused, reading the log only through
    /// step `through` when given (each child reads the log anew: the less, the faster).
    func run(keeping users: [Int], through: Int? = nil) throws -> Outcome {
        let id = UUID().uuidString
        let keep = folder.appendingPathComponent("\(id).keep"), out = folder.appendingPathComponent("\(id).out")
        let err = folder.appendingPathComponent("\(id).err")
        try Data(users.map(String.init).joined(separator: ",").utf8).write(to: keep)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { for file in [keep, out, err] { try? FileManager.default.removeItem(at: file) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            ["minimize", actions.log, "--session", String(actions.session.number), "--attempt", keep.path]
            + (through.map { ["--attempt-through", String($0)] } ?? [])
        // No backtrace: it would take seconds per crash, and the search crashes often.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        // Ours to close: a search starts hundreds of children, each would leak two descriptors.
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let lines = String(decoding: try Data(contentsOf: out), as: UTF8.self).split(separator: "\n")
        let said = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        let crashed = process.terminationReason == .uncaughtSignal
        if !crashed, process.terminationStatus != 0 {
            // The child refused (a log it cannot read, a step that no longer decodes): say so.
            throw ShrinkError(.cannotReplay, session: actions.session.label, said.split(separator: "\n").first.map(String.init) ?? "the replay failed")
        }
        let message = said.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("error") }.map {
            String($0[($0.range(of: "Fatal error: ")?.upperBound ?? $0.startIndex)...])
        }
        return Outcome(crashed: crashed, lastIndex: lines.last.flatMap { Int($0) }, message: message ?? "signal \(process.terminationStatus)")
    }
}
