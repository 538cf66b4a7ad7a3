import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReport

extension BenchmarkSuite {
    var reportSteps: Int { quick ? 1_000 : 10_000 }

    /// `rewind report` of a seeded random login session: the page's size against a page that
    /// carries every state whole (the naive baseline), the time to write it, and in headless
    /// Chromium the time to the first view and to step anywhere, against a blank page.
    func measureReport(into result: inout BenchmarkResult, progress: (String) -> Void) async throws {
        let log = path("report.rewind")
        let sink = try SQLiteSink(path: log)
        let host = RecordingHost(sink: sink)
        guard let script = SeedFlows.randomScript(flow: LoginFlow.name, seed: 5, steps: reportSteps) else {
            throw BenchmarkError("no random login driver")
        }
        await script.run(host: host, start: Date(timeIntervalSince1970: 1_800_000_000))
        try sink.close()

        let writer = try ReportWriter(path: log)
        var page: [UInt8] = []
        var writes: [Double] = []
        for _ in 0..<repetitions {
            writes.append(try Stopwatch.seconds { page = try writer.page(session: nil) } * 1_000)
        }
        result.add("report_write_ms", median(writes), "`report` page of a \(reportSteps)-step login session, built (ms)")
        result.add("report_naive_mb", try naiveReportBytes(of: log) / 1_048_576, "same, every state whole (MB)")
        result.add(
            "report_mb", Double(page.count) / 1_048_576, "same, our page: states as stored (MB)", baseline: "report_naive_mb",
            atMost: 2)

        let large = try largeReportSizes()
        result.add("report_large_naive_mb", large.naive / 1_048_576, "page of \(reportLargeSteps) steps over \(photoCount) photos, every state whole (MB)")
        result.add(
            "report_large_mb", large.ours / 1_048_576, "same, our page: states as stored (MB)", baseline: "report_large_naive_mb")

        guard let chromium = Self.chromium else {
            progress("no chromium on PATH: the report's browser figures are left out")
            return
        }
        let file = path("report.html")
        try Data(page).write(to: URL(fileURLWithPath: file))
        let blank = path("blank.html")
        try Data("<!doctype html><title>blank</title><p>blank</p>".utf8).write(to: URL(fileURLWithPath: blank))
        let session = try LogReader(path: log).session(nil)
        var blanks: [Double] = []
        var processes: [Double] = []
        var readies: [Double] = []
        var stepP50s: [Double] = []
        var stepMaxes: [Double] = []
        for _ in 0..<repetitions {
            blanks.append(try Stopwatch.seconds { _ = try Self.dumpDOM(chromium, url: "file://\(blank)") } * 1_000)
            processes.append(try Stopwatch.seconds { _ = try Self.dumpDOM(chromium, url: "file://\(file)#session=1&step=\(session.lastStep)") } * 1_000)
            let dom = try Self.dumpDOM(chromium, url: "file://\(file)#session=1&step=\(session.lastStep)&bench=200")
            let figures = try Self.benchFigures(in: dom)
            readies.append(figures.ready)
            stepP50s.append(figures.p50)
            stepMaxes.append(figures.max)
        }
        result.add("blank_page_process_ms", median(blanks), "headless Chromium on a blank page, whole process (ms)")
        result.add("report_process_ms", median(processes), "same on the report, at its last step (ms)", baseline: "blank_page_process_ms")
        result.add("report_first_view_ms", median(readies), "report: navigation to the first view laid out (ms)", atMost: 1_000)
        result.add("report_step_p50_ms", median(stepP50s), "report: step to a random step, p50 of 200 (ms)")
        result.add("report_step_max_ms", median(stepMaxes), "report: step to a random step, slowest of 200 (ms)", atMost: 50)
    }

    var reportLargeSteps: Int { quick ? 100 : 1_000 }

    /// A page over a photo library, where a step changes one photo of many: the bytes of our
    /// page and of the data a page would carry with every state whole.
    private func largeReportSizes() throws -> (ours: Double, naive: Double) {
        let log = path("report-large.rewind")
        let sink = try SQLiteSink(path: log)
        let recorder = Recorder<PhotosState, LargeStateFeature.Action>(sink: sink, session: session("report-large"))
        let store = Store(
            initialState: LargeStateFeature.state(photos: photoCount), reducer: LargeStateFeature(), middleware: [recorder], execution: .manual)
        for action in LargeStateFeature.actions(reportLargeSteps, photos: photoCount) { store.send(action) }
        recorder.close()
        try sink.close()
        let page = try ReportWriter(path: log).page(session: nil)
        return (Double(page.count), try naiveReportBytes(of: log))
    }

    /// The bytes of the data a page would carry with every state whole: each row's action and
    /// the canonical state after it, as `rewind export` writes them.
    private func naiveReportBytes(of log: String) throws -> Double {
        let reader = try LogReader(path: log)
        let session = try reader.session(nil)
        var bytes = 0
        try reader.walkStates(session, steps: 1...session.lastStep) { event, after in
            bytes += event.action.canonicalBytes.count + after.canonicalBytes.count + 24
        }
        return Double(bytes)
    }

    /// A headless Chromium on this machine, if any.
    static var chromium: String? {
        Executables.find("chromium", "chromium-browser", "google-chrome")
    }

    /// The DOM of `url` once its scripts ran, as `chromium --headless --dump-dom` prints it.
    static func dumpDOM(_ chromium: String, url: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--dump-dom", url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("chromium exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// What the page's bench mode wrote into `data-bench`.
    static func benchFigures(in dom: String) throws -> (ready: Double, p50: Double, max: Double) {
        guard let start = dom.range(of: #"data-bench=""#), let end = dom[start.upperBound...].firstIndex(of: "\"") else {
            throw BenchmarkError("the report page did not run its bench (no data-bench in its DOM)")
        }
        let text = dom[start.upperBound..<end].replacingOccurrences(of: "&quot;", with: "\"")
        let json = try JSONValue(parsing: String(text))
        func number(_ key: String) -> Double {
            switch json[JSONPath([.key(key)])] {
            case .int(let value)?: Double(value)
            case .double(let value)?: value
            default: .nan
            }
        }
        return (number("ready"), number("p50"), number("max"))
    }
}
