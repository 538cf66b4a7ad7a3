import Foundation
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
            for row in rows {
                guard case .array(let fields) = row, case .int(let step) = fields[0], case .int(let kind) = fields[7] else {
                    Issue.record("a row of another shape: \(row)")
                    continue
                }
                state = kind == 0 ? fields[8] : try state.applying(try JSONPatch(json: fields[8]))
                #expect(state == (try reader.state(of: summary, at: step)), "session \(summary.number) step \(step)")
            }
        }
    }

    @Test func aRowIsCompactStepTimeOriginNameLabelActionCauseAndState() async throws {
        let folder = try TemporaryDirectory()
        let writer = try ReportWriter(path: try await Self.demo(in: folder))
        let session = try #require(try ReportData.sessions(in: try writer.page(session: "login-happy")).first)
        #expect(session[JSONPath("origins")] == .array(["login"]))
        #expect(session[JSONPath("names")] == .array(["didUpdateUsername", "didUpdatePassword", "didTapLogin", "loginResponse", "output"]))
        #expect(
            session[JSONPath("rows[0]")]?.canonicalString
                == #"[1,140,0,0,"didUpdateUsername(\"a\")",{"didUpdateUsername":{"_0":"a"}},null,0,{"password":{"$redacted":0},"status":"idle","username":"a"}]"#
        )
        #expect(
            session[JSONPath("rows[18]")]?.canonicalString
                == #"[19,3400,0,3,"loginResponse(success(…))",{"loginResponse":{"_0":{"success":{"_0":{"displayName":"Alice Liddell","id":1,"username":"alice"}}}}},18,1,[["s",["status"],"succeeded"]]]"#
        )
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
}
