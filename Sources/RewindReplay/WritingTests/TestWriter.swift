import RewindCore
import RewindJSON

/// Writes recorded sessions as one Swift Testing file of `TestStore` tests (`rewind
/// write-test`): a `send` per action the user (or the app) sent, a `receive` per action or
/// output a step sent back, and for the async work a step started its name asserted and the
/// action it sent back in the recording delivered as its result, so that the test runs no
/// effect and needs none of the app's dependencies. Each step asserts only the fields that
/// changed (``StateAssignments``), in Swift the app compiles (``SwiftSpeller``).
///
/// The same sessions give the same bytes: nothing of the machine (no path, no time of
/// writing) and no clear secret reaches the file.
public struct TestWriter: Sendable {
    public struct Options: Sendable, Equatable {
        /// `.on`: the test says everything each step does; `.off`: only what changed, and
        /// actions sent back that the test does not receive pass.
        public var exhaustive = true
        /// Every value but a scalar written as its recorded JSON (`--values json`), for types
        /// whose memberwise initializer a test cannot reach.
        public var valuesAsJSON = false
        /// The Swift expression that builds the reducer, in place of the flow's.
        public var reducer: String?
        /// The version of `rewind` written in the header.
        public var version: String

        public init(exhaustive: Bool = true, valuesAsJSON: Bool = false, reducer: String? = nil, version: String) {
            self.exhaustive = exhaustive
            self.valuesAsJSON = valuesAsJSON
            self.reducer = reducer
            self.version = version
        }
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The file: a header, the imports, and one `@Test` per session, in the order given.
    public func file(_ sessions: [TestSession]) throws(TestWriterError) -> String {
        var modules: Set<String> = []
        var bodies: [String] = []
        var names: Set<String> = []
        for session in sessions {
            var name = SwiftLiteral.functionName(session.name ?? "session \(session.number)")
            if names.contains(name) { name += "Session\(session.number)" }
            names.insert(name)
            let (body, used) = try test(session, functionName: name)
            bodies.append(body)
            modules.formUnion(used)
        }
        let appModules = modules.subtracting(["Swift", "Foundation", "RewindCore", "RewindTesting", "Testing"]).sorted()
        var lines = header(sessions)
        lines.append("")
        if modules.contains("Foundation") { lines.append("import Foundation") }
        if modules.contains("RewindCore") { lines.append("import RewindCore") }
        lines.append("import RewindTesting")
        lines.append("import Testing")
        if !appModules.isEmpty {
            lines.append("")
            lines += appModules.map { "@testable import \($0)" }
        }
        return (lines + bodies.flatMap { [""] + [$0] }).joined(separator: "\n") + "\n"
    }

    func header(_ sessions: [TestSession]) -> [String] {
        let mode = options.exhaustive ? "exhaustive" : "non-exhaustive"
        var lines = ["// Written by `rewind write-test` (Rewind \(SwiftLiteral.comment(options.version))), \(mode), from:"]
        for session in sessions {
            let name = session.name.map { " \"\(SwiftLiteral.comment($0))\"" } ?? ""
            let shortened = session.shortenedFrom.map { ", shortened from \($0) steps" } ?? ""
            lines.append(
                "//   \(SwiftLiteral.comment(session.log)), session \(session.number)\(name) (flow \(SwiftLiteral.comment(session.flow)), steps \(session.firstStep)–\(session.lastStep)\(shortened))"
            )
            if !session.recordsEffects {
                lines.append("//   (its log's format did not record the work steps started: its effects are not asserted)")
            }
        }
        lines.append("// Each step asserts the fields it changed; the effects it started are asserted by name and")
        lines.append("// their recorded results delivered, so no effect runs. Write it again rather than edit it")
        lines.append("// when the recording changes; docs/testing.md says what it does not check.")
        return lines
    }

    /// One `@Test` function, and the modules its types come from.
    func test(_ session: TestSession, functionName: String) throws(TestWriterError) -> (String, Set<String>) {
        let types = session.types
        guard let reducer = options.reducer ?? types.reducerExpression else {
            throw TestWriterError(
                .noReducerExpression, session: session.number, "the reducer type \(types.reducerType) has no name a test can write: give --reducer EXPR")
        }
        var speller = SwiftSpeller(prefersJSON: options.valuesAsJSON)
        speller.modules.formUnion(SwiftTypeName(types.reducerType).modules)
        speller.modules.formUnion(SwiftTypeName(types.stateType).modules)
        // The display name holds the name escaped (`\u{1B}`), as the comment does: a test runner
        // prints it to a terminal as is.
        let label = session.name.map { "\(SwiftLiteral.comment($0)) (session \(session.number))" } ?? "session \(session.number)"
        var lines = ["@MainActor", "@Test(\(SwiftLiteral.string(label)))", "func \(functionName)() async throws {"]
        lines.append("    let store = TestStore(")
        lines.append("        initialState: try decodedFromRecordedJSON(\(SwiftLiteral.raw(session.initialState.canonicalString))),")
        lines.append("        reducer: \(reducer),")
        let exhaustivity = options.exhaustive ? "" : ", exhaustivity: .off"
        let step = session.firstStep == 0 ? "" : ", step: \(session.firstStep)"
        lines.append("        effects: \(session.recordsEffects ? ".byName" : ".ignored")\(exhaustivity)\(step)")
        lines.append("    )")
        var before: (value: Any, json: JSONValue) = (
            try decode(session.initialState, session: session, step: session.firstStep, types.state), session.initialState
        )
        var byStep: [Int: TestSession.Step] = [:]
        for step in session.steps {
            let after = (value: try decode(step.state, session: session, step: step.number, types.state), json: step.state)
            let action = try decode(step.action, session: session, step: step.number, types.action)
            speller.decodes = false
            let spelledAction = speller.spell(action, step.action)
            let actionTry = speller.decodes ? "try " : ""
            var call: String
            var comment = "    // Step \(step.number)"
            if let cause = step.cause, session.recordsEffects, let causing = byStep[cause] {
                if causing.outputs.contains(step.action) || causing.sends.contains(step.action) {
                    call = "await store.receive(\(spelledAction)"
                    comment += ", sent back by step \(cause)"
                } else {
                    let work = causing.runs.first ?? nil
                    call = "store.deliver(\(spelledAction), from: \(work.map(SwiftLiteral.string) ?? "nil")"
                    let others = causing.runs.count > 1 ? " (it started \(causing.runs.count))" : ""
                    comment += ", the result of step \(cause)'s work\(others)"
                }
            } else {
                call = "store.send(\(spelledAction)"
                if let cause = step.cause {
                    comment += session.recordsEffects ? ", sent back by step \(cause), before this test's first step" : ", sent back by step \(cause)"
                }
            }
            if !step.runs.isEmpty {
                call += ", starts: [" + step.runs.map { $0.map(SwiftLiteral.string) ?? "nil" }.joined(separator: ", ") + "]"
            }
            call += ")"
            lines.append(comment + ".")
            var assignments = StateAssignments(speller: speller)
            assignments.add(at: "$0", from: before.value, before.json, to: after.value, after.json)
            speller = assignments.speller
            if assignments.statements.isEmpty {
                lines.append("    \(actionTry)\(call)")
            } else {
                lines.append("    \(actionTry)\(call) {")
                lines += assignments.statements.map { "        " + $0 }
                lines.append("    }")
            }
            byStep[step.number] = step
            before = after
        }
        lines.append("    await store.finish()")
        lines.append("}")
        return (lines.joined(separator: "\n"), speller.modules)
    }

    func decode(_ json: JSONValue, session: TestSession, step: Int, _ decode: (JSONValue) throws -> Any) throws(TestWriterError) -> Any {
        do {
            return try decode(json)
        } catch {
            throw TestWriterError(.cannotDecode, session: session.number, "step \(step) does not decode as the flow's types: \(error)")
        }
    }
}
