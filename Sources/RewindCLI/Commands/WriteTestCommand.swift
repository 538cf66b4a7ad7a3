import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindReplay
import RewindTeamStore

/// `rewind write-test`: a recorded session as a Swift test a reviewer reads.
struct WriteTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-test",
        abstract: "Write recorded sessions as a Swift Testing file of TestStore tests.",
        discussion: """
            One @Test per session (every session of the log when --session is left out): a \
            send per action the user or the app sent, a receive per action or output a step \
            sent back, and for the work a step started its name asserted and the result the \
            recording holds delivered, so the test runs no effect. Each step asserts only the \
            fields it changed, as Swift the app compiles; a value whose Swift spelling cannot be \
            known is read from its recorded JSON by decodedFromRecordedJSON. The same sessions \
            give the same bytes; no path and no clear secret reach the file. The test imports \
            the app's modules with @testable: add it to a test target that depends on them, \
            with RewindTesting (see docs/testing.md).

            Examples:
              rewind write-test demo.rewind -s login-happy -o Tests/AppTests/LoginHappyTests.swift
              rewind write-test big.rewind -s 3 --minimize-until 'errorMessage != null' -o Tests/AppTests/ErrorTests.swift
              rewind write-test demo.rewind -s login-happy --from 10 --to 20 --non-exhaustive -o -
            """
    )

    enum Exhaustivity: String, EnumerableFlag {
        case exhaustive
        case nonExhaustive

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .exhaustive: "Assert everything each step does (the default)."
            case .nonExhaustive: "Assert what changed, and let actions the test does not receive pass."
            }
        }
    }

    enum Values: String, ExpressibleByArgument, CaseIterable {
        case swift, json
    }

    @Argument(help: "The log to read, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(name: .shortAndLong, help: "A session, by number, name or UUID; repeat for more (every session when left out).")
    var session: [String] = []

    @Option(name: .shortAndLong, help: "The Swift file to write (replaced once complete), or - for standard output.")
    var output: String

    @Flag var exhaustivity: Exhaustivity = .exhaustive

    @Option(help: ArgumentHelp("Start from the recorded state after step N (one session).", valueName: "N"))
    var from: Int?

    @Option(help: ArgumentHelp("End with step M (one session).", valueName: "M"))
    var to: Int?

    @Option(help: ArgumentHelp("Shorten each session first to the steps that still reach a state satisfying EXPR (minimize --until).", valueName: "EXPR"))
    var minimizeUntil: String?

    @Option(
        help: ArgumentHelp("The Swift expression that builds the reducer, in place of the flow's (e.g. 'LoginFeature(backend: .unused)').", valueName: "EXPR"))
    var reducer: String?

    @Option(help: "How values are written: swift (literals, cases, initializers) or json (all but scalars read from their recorded JSON).")
    var values: Values = .swift

    func validate() throws {
        if from != nil || to != nil {
            guard session.count <= 1 else { throw ValidationError("--from and --to take one session: give --session S once") }
            guard minimizeUntil == nil else { throw ValidationError("choose --from/--to or --minimize-until, not both") }
        }
        if let from, from < 0 { throw ValidationError("--from must be a step number, 0 or more") }
        if let from, let to, to <= from { throw ValidationError("--to must come after --from") }
    }

    func run() async throws {
        let selection = SessionSelection(session.isEmpty ? .every : .these(session))
        try await SessionStores.reading(log, selection) { try write(reading: $0.path) }
    }

    private func write(reading path: String) throws {
        if output != "-" { try LineWriter.checkOutput(output, readingFrom: path) }
        let flows = CommandContext.current.flows
        let summaries = try FlowRequirement(flows: flows).check(log: path, sessions: session, verb: "write-test")
        if from != nil || to != nil, summaries.count > 1 {
            throw LogError(.invalidArgument, path: path, "--from and --to take one session, and the log holds \(summaries.count): give --session S")
        }
        let predicate = try minimizeUntil.map { expression throws(LogError) in
            do {
                return try StatePredicate(parsing: expression)
            } catch {
                throw LogError(.invalidArgument, "--minimize-until: \(error)", underlying: error)
            }
        }
        var sessions: [TestSession] = []
        for summary in summaries {
            let selector = String(summary.number)
            if let predicate, let minimizeUntil {
                let actions = try RecordedActions(log: path, session: selector, registry: flows)
                let progress = ShrinkProgress(session: actions.session.label)
                defer { progress.finish() }
                let shrunk: ShrunkSession
                do {
                    shrunk = try SessionShrinker(actions, goal: .reaching(description: minimizeUntil, predicate: { predicate.matches($0) }))
                        .shrink(progress: progress.update)
                } catch {
                    throw LogError(.invalidArgument, path: path, session: summary.number, "session \(summary.label): \(error)")
                }
                sessions.append(TestSession(shrunk))
            } else {
                let actions = try RecordedActions(log: path, session: selector, registry: flows, keepingStates: true)
                sessions.append(try TestSession(actions, from: from, to: to))
            }
        }
        let options = TestWriter.Options(
            exhaustive: exhaustivity == .exhaustive, valuesAsJSON: values == .json, reducer: reducer, version: CommandContext.current.version)
        let text = try TestWriter(options: options).file(sessions)
        let writer = output == "-" ? LineWriter.standardOutput() : try LineWriter(replacingFileAt: output)
        do {
            try writer.write(raw: Array(text.utf8))
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
        if output != "-" {
            let steps = sessions.reduce(0) { $0 + $1.steps.count }
            let what = sessions.count == 1 ? "1 test" : "\(sessions.count) tests"
            print(TerminalText.escaped("wrote \(what) (\(steps) step\(steps == 1 ? "" : "s")) to \(output)"))
        }
    }
}
