import Foundation

/// A database of the run's own on the PostgreSQL the bench is given
/// (`REWIND_BENCH_POSTGRES_URL`, or `REWIND_TEST_POSTGRES_URL` as `tools/postgres-cluster env`
/// prints it, with `PGPASSWORD`), made and migrated by this `rewind`, dropped by ``drop()``.
struct BenchDatabase {
    /// The store's `postgres://` URL.
    let url: String
    let psql: String
    private let server: String
    private let name: String

    /// The database, or nil with the note that says why a group's figures are left out: no
    /// server given, no `psql`, or a `rewind` that cannot reach it or was built without the
    /// `Servers` trait (it answers `sessions` with exit 69).
    static func make(for group: String, rewind: String, notes: inout [String]) throws -> BenchDatabase? {
        let environment = ProcessInfo.processInfo.environment
        guard let server = environment["REWIND_BENCH_POSTGRES_URL"] ?? environment["REWIND_TEST_POSTGRES_URL"],
            let slash = server.lastIndex(of: "/")
        else {
            notes.append("\(group): no PostgreSQL given (REWIND_BENCH_POSTGRES_URL, or tools/postgres-cluster env); figures left out")
            return nil
        }
        guard let psql = Executables.find("psql") else {
            notes.append("\(group): psql is not installed (apt-get install postgresql-client); figures left out")
            return nil
        }
        let name = "rewind_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let database = BenchDatabase(url: String(server[..<slash]) + "/" + name, psql: psql, server: server, name: name)
        try database.sql("CREATE DATABASE \(name)", on: server)
        guard (try? ChildProcess.run(rewind, ["sessions", database.url])) != nil else {
            database.drop()
            notes.append("\(group): this rewind cannot reach \(name) or was built without the Servers trait; figures left out")
            return nil
        }
        return database
    }

    /// Runs `text` with psql on the database (or on `target`), stopping at the first error.
    func sql(_ text: String, on target: String? = nil) throws {
        try ChildProcess.run(psql, ["-X", "-w", "-q", "-v", "ON_ERROR_STOP=1", target ?? url, "-c", text])
    }

    func drop() {
        try? sql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server)
    }
}
