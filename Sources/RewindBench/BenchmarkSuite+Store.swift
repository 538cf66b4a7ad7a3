import Foundation
import PhotoApp

/// The team store's figures (DESIGN section 14), whole processes of this very `rewind` against
/// a PostgreSQL on loopback, each beside its baseline of the same run: `push` beside `psql`'s
/// `COPY` of the same block rows, `show` from the store beside `show` from the file, and a
/// sharded `replay` of the store beside the same of the file.
///
/// The server is `REWIND_BENCH_POSTGRES_URL` (or `REWIND_TEST_POSTGRES_URL`, as
/// `tools/postgres-cluster env` prints it, with `PGPASSWORD`): a database of the run's own is
/// made there and dropped after. Without one, or in a `rewind` built without the `TeamStore`
/// trait, the figures are left out with a note.
extension BenchmarkSuite {
    var storeSteps: Int { quick ? 20_000 : 1_000_000 }
    var storeShowRuns: Int { quick ? 5 : 21 }
    var shardSessions: Int { quick ? 4 : 8 }
    var shardSteps: Int { quick ? 1_000 : 50_000 }

    func measureStore(into result: inout BenchmarkResult, progress: (String) -> Void) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let server = environment["REWIND_BENCH_POSTGRES_URL"] ?? environment["REWIND_TEST_POSTGRES_URL"],
            let slash = server.lastIndex(of: "/")
        else {
            result.notes.append("store: no PostgreSQL given (REWIND_BENCH_POSTGRES_URL, or tools/postgres-cluster env); figures left out")
            return
        }
        guard let psql = Executables.find("psql") else {
            result.notes.append("store: psql is not installed (apt-get install postgresql-client); figures left out")
            return
        }
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let database = "rewind_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = String(server[..<slash]) + "/" + database
        func sql(_ text: String, on target: String = store) throws {
            try ChildProcess.run(psql, ["-X", "-w", "-q", "-v", "ON_ERROR_STOP=1", target, "-c", text])
        }
        try sql("CREATE DATABASE \(database)", on: server)
        defer { try? sql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", on: server) }

        // A build without the trait says so (exit 69): the store's figures are left out.
        guard (try? ChildProcess.run(rewind, ["sessions", store])) != nil else {
            result.notes.append("store: this rewind cannot reach \(database) or was built without the TeamStore trait; figures left out")
            return
        }
        progress("a \(storeSteps)-step login session pushed to PostgreSQL, and psql's COPY of its blocks")
        let big = path("store-big.rewind")
        try ChildProcess.run(rewind, ["record", "login", "--random", "--seed", "3", "--steps", String(storeSteps), "--output", big])
        // The baseline loads the very rows the push wrote, in COPY's binary form, into a
        // table of the same shape, keys and indexes. Each is timed `repetitions` times, in
        // turn, into emptied tables: the median of each.
        let rows = path("store-blocks.copy")
        var pushes: [Double] = [], copies: [Double] = []
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
        }
        let (push, copy) = (median(pushes), median(copies))
        result.add("store_push_steps_per_s", Double(storeSteps) / push, "push to PostgreSQL, login (steps/s, whole process)")
        result.add("store_copy_steps_per_s", Double(storeSteps) / copy, "psql COPY of the same block rows (steps/s)", baseline: "psql COPY")
        result.add("ratio_store_push_copy", copy / push, "ratio: push / psql COPY of the same rows (×)", atLeast: 0.5)

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
    }
}
