import Foundation
import RewindCore
import RewindJSON
import RewindLog
import RewindReport
import RewindTestSupport
import Testing

/// What a report page holds: every session as the log stores it, from which every state can
/// be rebuilt, and limits that say how to narrow a report too large to open quickly.
@Suite struct ReportWriterTests {
    static func demo(in folder: TemporaryDirectory) async throws -> String {
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        return path
    }

    @Test func everyStateRebuildsFromTheDataAsTheLogHasIt() async throws {
        let folder = try TemporaryDirectory()
        let reader = try LogReader(path: try await Self.demo(in: folder))
        let sessions = try ReportData.sessions(in: try ReportWriter(reader: reader).page(session: nil))
        #expect(sessions.count == 7)
        for (summary, data) in zip(try reader.sessions(), sessions) {
            #expect(data[JSONPath("number")] == .int(summary.number))
            #expect(data[JSONPath("first")] == .int(1))
            #expect(data[JSONPath("last")] == .int(summary.lastStep))
            guard case .array(let rows)? = data[JSONPath("rows")] else {
                Issue.record("no rows")
                continue
            }
            #expect(rows.count == summary.eventCount)
            var state = try #require(data[JSONPath("base")])
            #expect(state == (try reader.state(of: summary, at: 0)))
            guard case .array(let patches)? = data[JSONPath("patches")] else {
                Issue.record("no patches")
                continue
            }
            for row in rows {
                guard case .array(let fields) = row, case .int(let step) = fields[0], case .int(let kind) = fields[5] else {
                    Issue.record("a row of another shape: \(row)")
                    continue
                }
                if kind == 0 {
                    state = fields[6]
                } else if case .int(let patch) = fields[6], patches.indices.contains(patch) {
                    state = try state.applying(try JSONPatch(json: patches[patch]))
                } else {
                    Issue.record("a patch row that names no patch: \(row)")
                }
                #expect(state == (try reader.state(of: summary, at: step)), "session \(summary.number) step \(step)")
            }
        }
    }

    @Test func aRowIsCompactStepTimeOriginActionCauseAndState() async throws {
        let folder = try TemporaryDirectory()
        let writer = try ReportWriter(path: try await Self.demo(in: folder))
        let session = try #require(try ReportData.sessions(in: try writer.page(session: "login-happy")).first)
        #expect(session[JSONPath("origins")] == .array(["login"]))
        #expect(session[JSONPath("names")] == .array(["didUpdateUsername", "didUpdatePassword", "didTapLogin", "loginResponse", "output"]))
        #expect(
            session[JSONPath("rows[0]")]?.canonicalString
                == #"[1,140,0,0,null,0,{"password":{"$redacted":0},"status":"idle","username":"a"}]"#
        )
        #expect(session[JSONPath("actions[0]")]?.canonicalString == #"[0,"didUpdateUsername(\"a\")",{"didUpdateUsername":{"_0":"a"}}]"#)
        let response = try #require(session[JSONPath("rows[18]")])
        #expect(response[JSONPath("[0]")] == 19)
        #expect(response[JSONPath("[4]")] == 18, "caused by step 18")
        #expect(response[JSONPath("[5]")] == 1, "a patch")
        guard case .int(let action)? = response[JSONPath("[3]")], case .int(let patch)? = response[JSONPath("[6]")],
            case .array(let actions)? = session[JSONPath("actions")], case .array(let patches)? = session[JSONPath("patches")]
        else {
            Issue.record("no action or patch number: \(response)")
            return
        }
        #expect(
            actions[action].canonicalString
                == #"[3,"loginResponse(success(…))",{"loginResponse":{"_0":{"success":{"_0":{"displayName":"Alice Liddell","id":1,"username":"alice"}}}}}]"#)
        #expect(patches[patch].canonicalString == #"[["s",["status"],"succeeded"]]"#)
        #expect(session[JSONPath("redacted")] == .array(["action.didUpdatePassword._0", "password"]))
    }

    @Test func aRangeStartsFromTheStateBeforeIt() async throws {
        let folder = try TemporaryDirectory()
        let reader = try LogReader(path: try await Self.demo(in: folder))
        let summary = try reader.session("2")
        let session = try #require(try ReportData.sessions(in: try ReportWriter(reader: reader).page(session: "2", steps: 5...9)).first)
        #expect(session[JSONPath("first")] == .int(5))
        #expect(session[JSONPath("last")] == .int(9))
        #expect(session[JSONPath("base")] == (try reader.state(of: summary, at: 4)))
        guard case .array(let rows)? = session[JSONPath("rows")] else {
            Issue.record("no rows")
            return
        }
        #expect(rows.map { $0[JSONPath("[0]")] } == [5, 6, 7, 8, 9].map { JSONValue.int($0) })
    }

    @Test func aReportPastItsLimitIsRefusedSayingHowToNarrowIt() async throws {
        let folder = try TemporaryDirectory()
        var writer = try ReportWriter(path: try await Self.demo(in: folder))
        writer.maximumSteps = 100
        let error = try #require(throws: ReportError.self) { try writer.page(session: nil) }
        #expect(error.kind == .tooLarge)
        #expect(error.steps == 178)
        #expect(error.message == "a report of 178 steps is more than one page holds (100); narrow it with --session and --from/--to")
        #expect(throws: Never.self) { try writer.page(session: "7") }

        writer.maximumBytes = 1000
        let bytes = try #require(throws: ReportError.self) { try writer.page(session: "7") }
        #expect(bytes.kind == .tooLarge)

        let range = try #require(throws: ReportError.self) { try writer.page(session: nil, steps: 1...5) }
        #expect(range.kind == .ambiguousRange)
    }

    /// Origins that read alike but differ in bytes: `é` and `e` + U+0301.
    enum Accented: Codable, Sendable, DescribedAction {
        case composed, decomposed
        var origin: String { self == .composed ? "caf\u{E9}" : "cafe\u{301}" }
        var name: String { self == .composed ? "composed" : "decomposed" }
    }

    struct Counter: Reducer {
        func reduce(into state: inout Int, action: Accented) -> Effect<Accented> {
            state += 1
            return .none
        }
    }

    /// Values written once are matched byte for byte, as the log stores them: two origins that
    /// Swift's `String` calls equal stay two.
    @MainActor @Test func valuesWrittenOnceAreMatchedByteForByte() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("accented.rewind")
        let sink = try SQLiteSink(path: log)
        let recorder = Recorder<Int, Accented>(sink: sink, session: SessionDescriptor(name: "accented", flow: "accented"))
        let store = Store(initialState: 0, reducer: Counter(), middleware: [recorder], execution: .manual)
        store.send(.composed)
        store.send(.decomposed)
        recorder.close()
        try sink.close()
        let session = try #require(try ReportData.sessions(in: try ReportWriter(path: log).page(session: nil)).first)
        #expect(session[JSONPath("origins")] == .array([.string("caf\u{E9}"), .string("cafe\u{301}")]))
        #expect(session[JSONPath("rows[1][2]")] == 1, "the second row names the second origin")
    }
}
