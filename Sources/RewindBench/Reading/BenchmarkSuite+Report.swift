import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReport

extension BenchmarkSuite {
    /// A report's largest page is 100,000 steps (`ReportWriter`'s cap): the login page is that
    /// size, so its figures are the worst a user meets.
    var reportSteps: Int { quick ? 1_000 : 100_000 }
    var reportLargeSteps: Int { quick ? 100 : 2_000 }
    /// Steps the page's bench mode times per page view: each costs 40-60 ms of a browser, and
    /// `--quick` (a test that the figures come out) needs no more than a few.
    var reportJumps: Int { quick ? 20 : 200 }

    /// `rewind report` of a seeded random login session and of a session over a photo
    /// library: each page's size against a page that carries every state whole (the naive
    /// baseline), the time to write it, and in headless Chromium the time to the first view
    /// and to step anywhere, against a blank page, with no field's history open and with one.
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
            atMost: 2 * Double(reportSteps) / 10_000)

        let large = path("report-large.rewind")
        try recordLargeReportSession(at: large)
        let largePage = try ReportWriter(path: large).page(session: nil)
        result.add(
            "report_large_naive_mb", try naiveReportBytes(of: large) / 1_048_576,
            "page of \(reportLargeSteps) steps over \(photoCount) photos, every state whole (MB)")
        result.add(
            "report_large_mb", Double(largePage.count) / 1_048_576, "same, our page: states as stored (MB)", baseline: "report_large_naive_mb")

        guard let chromium = Self.chromium else {
            progress("no chromium on PATH: the report's browser figures are left out")
            return
        }
        let blank = path("blank.html")
        try Data("<!doctype html><title>blank</title><p>blank</p>".utf8).write(to: URL(fileURLWithPath: blank))
        var blanks: [Double] = []
        for _ in 0..<repetitions {
            blanks.append(try Stopwatch.seconds { _ = try Self.dumpDOM(chromium, url: "file://\(blank)") } * 1_000)
        }
        result.add("blank_page_process_ms", median(blanks), "headless Chromium on a blank page, whole process (ms)")

        let file = path("report.html")
        try Data(page).write(to: URL(fileURLWithPath: file))
        let lastStep = try LogReader(path: log).session(nil).lastStep
        var processes: [Double] = []
        for _ in 0..<repetitions {
            processes.append(try Stopwatch.seconds { _ = try Self.dumpDOM(chromium, url: "file://\(file)#session=1&step=\(lastStep)") } * 1_000)
        }
        result.add("report_process_ms", median(processes), "same on the login page, at its last step (ms)", baseline: "blank_page_process_ms")
        try addBrowserFigures(
            into: &result, chromium: chromium, file: file, fragment: "session=1&step=\(lastStep)", key: "report",
            label: "login page")
        try addBrowserFigures(
            into: &result, chromium: chromium, file: file, fragment: "session=1&step=\(lastStep)&field=status", key: "report_history",
            label: "login page, history of status open")

        let largeFile = path("report-large.html")
        try Data(largePage).write(to: URL(fileURLWithPath: largeFile))
        try addBrowserFigures(
            into: &result, chromium: chromium, file: largeFile, fragment: "session=1&step=\(reportLargeSteps)", key: "report_large",
            label: "photos page")
        try addBrowserFigures(
            into: &result, chromium: chromium, file: largeFile, fragment: "session=1&step=\(reportLargeSteps)&field=photos",
            key: "report_large_history", label: "photos page, history of photos open")
    }

    /// The page's own bench mode, run `repetitions` times: the medians of its first view, and
    /// of the p50, p99 and slowest of ``reportJumps`` steps to random steps.
    private func addBrowserFigures(
        into result: inout BenchmarkResult, chromium: String, file: String, fragment: String, key: String, label: String
    ) throws {
        var readies: [Double] = []
        var p50s: [Double] = []
        var p99s: [Double] = []
        var maxes: [Double] = []
        for _ in 0..<repetitions {
            let figures = try Self.benchFigures(in: try Self.dumpDOM(chromium, url: "file://\(file)#\(fragment)&bench=\(reportJumps)"))
            readies.append(figures.ready)
            p50s.append(figures.p50)
            p99s.append(figures.p99)
            maxes.append(figures.max)
        }
        result.add("\(key)_first_view_ms", median(readies), "\(label): navigation to the first view laid out (ms)", atMost: 1_000)
        result.add("\(key)_step_p50_ms", median(p50s), "\(label): step to a random step, p50 of \(reportJumps) (ms)")
        result.add("\(key)_step_p99_ms", median(p99s), "\(label): same, p99 (ms)", atMost: 50)
        result.add("\(key)_step_max_ms", median(maxes), "\(label): same, slowest (ms)")
    }

    /// A session over a photo library, where a step changes one photo of many.
    private func recordLargeReportSession(at log: String) throws {
        let sink = try SQLiteSink(path: log)
        let recorder = Recorder<PhotosState, LargeStateFeature.Action>(sink: sink, session: session("report-large"))
        let store = Store(
            initialState: LargeStateFeature.state(photos: photoCount), reducer: LargeStateFeature(), middleware: [recorder], execution: .manual)
        for action in LargeStateFeature.actions(reportLargeSteps, photos: photoCount) { store.send(action) }
        recorder.close()
        try sink.close()
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
    static func benchFigures(in dom: String) throws -> (ready: Double, p50: Double, p99: Double, max: Double) {
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
        return (number("ready"), number("p50"), number("p99"), number("max"))
    }
}
