import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindUpload

/// The team store's figures (DESIGN section 14), whole processes of this very `rewind` against
/// a PostgreSQL on loopback, each beside its baseline of the same run: `push` beside `psql`'s
/// `COPY` of the same block rows, the same push through the collector (`rewind serve`) beside
/// the push straight in, `show` from the store beside `show` from the file, and a sharded
/// `replay` of the store beside the same of the file.
///
/// The server is `REWIND_BENCH_POSTGRES_URL` (or `REWIND_TEST_POSTGRES_URL`, as
/// `tools/postgres-cluster env` prints it, with `PGPASSWORD`): a database of the run's own is
/// made there and dropped after. Without one, or in a `rewind` built without the `Servers`
/// trait, the figures are left out with a note.
extension BenchmarkSuite {
    var storeSteps: Int { quick ? 20_000 : 1_000_000 }
    var storeShowRuns: Int { quick ? 5 : 21 }
    var shardSessions: Int { quick ? 4 : 8 }
    var shardSteps: Int { quick ? 1_000 : 50_000 }

    func measureStore(into result: inout BenchmarkResult, progress: (String) -> Void) throws {
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        guard let database = try BenchDatabase.make(for: "store", rewind: rewind, notes: &result.notes) else { return }
        defer { database.drop() }
        let store = database.url
        func sql(_ text: String) throws { try database.sql(text) }
        progress("a \(storeSteps)-step login session pushed to PostgreSQL, and psql's COPY of its blocks")
        let big = path("store-big.rewind")
        try ChildProcess.run(rewind, ["record", "login", "--random", "--seed", "3", "--steps", String(storeSteps), "--output", big])
        // The baseline loads the very rows the push wrote, in COPY's binary form, into a
        // table of the same shape, keys and indexes. Each is timed `repetitions` times, in
        // turn, into emptied tables: the median of each.
        let rows = path("store-blocks.copy")
        let collector = try BenchCollector(rewind: rewind, store: store, tokens: path("store-collector.tokens"))
        defer { collector.stop() }
        var pushes: [Double] = [], copies: [Double] = [], uploads: [Double] = []
        for repetition in 0..<repetitions {
            if repetition > 0 { try sql("TRUNCATE rewind_block, rewind_gap, rewind_session CASCADE") }
            pushes.append(try Stopwatch.seconds { try ChildProcess.run(rewind, ["push", big, "--to", store]) })
            if repetition == 0 {
                try sql(#"\copy (SELECT * FROM rewind_block) TO '\#(rows)' WITH (FORMAT binary)"#)
                try sql("CREATE TABLE copy_block (LIKE rewind_block INCLUDING ALL)")
            } else {
                try sql("TRUNCATE copy_block")
            }
            copies.append(try Stopwatch.seconds { try sql(#"\copy copy_block FROM '\#(rows)' WITH (FORMAT binary)"#) })
            // The same session through the collector, 4 MiB of blocks a request, as an app sends it.
            try sql("TRUNCATE rewind_block, rewind_gap, rewind_session CASCADE")
            uploads.append(try Stopwatch.seconds { try ChildProcess.run(rewind, ["push", big, "--to", collector.url, "--token", collector.token]) })
        }
        let (push, copy) = (median(pushes), median(copies))
        result.add("store_push_steps_per_s", Double(storeSteps) / push, "push to PostgreSQL, login (steps/s, whole process)")
        result.add("store_copy_steps_per_s", Double(storeSteps) / copy, "psql COPY of the same block rows (steps/s)", baseline: "psql COPY")
        result.add("ratio_store_push_copy", copy / push, "ratio: push / psql COPY of the same rows (×)", atLeast: 0.5)
        let upload = median(uploads)
        result.add("collector_ingest_steps_per_s", Double(storeSteps) / upload, "push through the collector into PostgreSQL (steps/s, whole process)")
        result.add("ratio_collector_push", push / upload, "ratio: through the collector / push straight into PostgreSQL (×)", atLeast: 0.5)

        progress("show at \(storeShowRuns) random steps, from the store and from the file")
        var generator = SeededGenerator(seed: 7)
        var fromFile: [Double] = [], fromStore: [Double] = []
        for _ in 0..<storeShowRuns {
            let step = String(Int.random(in: 1...storeSteps, using: &generator))
            fromFile.append(try Stopwatch.seconds { try ChildProcess.run(rewind, ["show", big, step]) })
            fromStore.append(try Stopwatch.seconds { try ChildProcess.run(rewind, ["show", store, step]) })
        }
        let (fileShow, storeShow) = (Percentiles(fromFile).p50, Percentiles(fromStore).p50)
        result.add("store_show_p50_ms", storeShow * 1000, "show at a random step from PostgreSQL, p50 (ms, whole process)")
        result.add("file_show_p50_ms", fileShow * 1000, "show at a random step from the file, p50 (ms, whole process)", baseline: "the file")
        result.add("ratio_store_show_file", storeShow / fileShow, "ratio: show from the store / from the file, p50 (×)", atMost: 3)

        progress("replay --shard 1/2 and 2/2 of \(shardSessions) sessions, from the store and from files")
        try sql("TRUNCATE rewind_block, rewind_gap, rewind_session CASCADE")
        let sessions = path("store-shards.rewind")
        for seed in 1...shardSessions {
            try ChildProcess.run(rewind, ["record", "login", "--random", "--seed", String(seed), "--steps", String(shardSteps), "--output", sessions])
        }
        try ChildProcess.run(rewind, ["push", sessions, "--to", store])
        func shards(_ location: String) throws -> Double {
            try Stopwatch.seconds {
                for shard in ["1/2", "2/2"] { try ChildProcess.run(rewind, ["replay", location, "--shard", shard]) }
            }
        }
        var fromFiles: [Double] = [], fromStores: [Double] = []
        for _ in 0..<repetitions {
            fromFiles.append(try shards(sessions))
            fromStores.append(try shards(store))
        }
        let (filesReplay, storeReplay) = (median(fromFiles), median(fromStores))
        let steps = Double(shardSessions * shardSteps)
        result.add("store_replay_steps_per_s", steps / storeReplay, "replay --shard 1/2 + 2/2 from PostgreSQL (steps/s)")
        result.add("file_replay_steps_per_s", steps / filesReplay, "replay --shard 1/2 + 2/2 from the file (steps/s)", baseline: "the file")
        result.add("ratio_store_replay_file", filesReplay / storeReplay, "ratio: replay from the store / from the file (×)", atLeast: 0.8)

        // Last: its uploads go into the store the figures above read.
        try measureDispatchWhileUploading(to: collector, into: &result, progress: progress)
    }
}

extension BenchmarkSuite {
    /// Login dispatch with recording, with and without an app's upload of the log being
    /// recorded running beside it (an `Uploader` every 20 ms, to the collector), in turn
    /// `repetitions` times: an app that uploads dispatches as fast as one that does not.
    fileprivate func measureDispatchWhileUploading(
        to collector: BenchCollector, into result: inout BenchmarkResult, progress: (String) -> Void
    ) throws {
        progress("dispatch with recording, with and without an upload of its log running")
        guard let root = URL(string: collector.url) else { return }
        var quiet: [Double] = [], uploading: [Double] = []
        for repetition in 0..<repetitions {
            let quietSink = try SQLiteSink(path: path("dispatch-quiet-\(repetition).rewind"))
            let quietRecorder = Recorder<LoginState, LoginAction>(sink: quietSink, session: session("dispatch"))
            quiet.append(measureDispatch(of: loginStore(middleware: [quietRecorder]), recorder: quietRecorder, count: smallSteps).p50)
            quietRecorder.close()
            try quietSink.close()

            let log = path("dispatch-uploading-\(repetition).rewind")
            let sink = try SQLiteSink(path: log)
            let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: session("dispatch"))
            recorder.flush()
            let client = CollectorClient(root: root, token: collector.token)
            let uploads = Task.detached {
                var sent = 0
                while !Task.isCancelled {
                    sent += (try? await Uploader(log: log, to: client).upload().reduce(0) { $0 + $1.added }) ?? 0
                    try? await Task.sleep(nanoseconds: 20_000_000)
                }
                return sent
            }
            uploading.append(measureDispatch(of: loginStore(middleware: [recorder]), recorder: recorder, count: smallSteps).p50)
            uploads.cancel()
            recorder.close()
            try sink.close()
        }
        let (alone, beside) = (median(quiet), median(uploading))
        result.add("dispatch_recording_uploading_ns", beside, "dispatch with recording, its log uploaded meanwhile, p50 of runs (ns)")
        result.add("dispatch_recording_alone_ns", alone, "dispatch with recording, no upload, p50 of runs (ns)", baseline: "no upload")
        result.add("ratio_dispatch_uploading", beside / alone, "ratio: dispatch with an upload running / without (×)", atMost: 1.1)
    }
}
