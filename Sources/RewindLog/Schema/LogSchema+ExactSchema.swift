import GRDB

extension LogSchema {
    /// Checks that the schema of `db` is exactly the one Rewind's migrations give a log of its
    /// format version: the same `CREATE` statements, character for character, and the same
    /// migrations recorded as applied.
    ///
    /// Readers only need the columns they read (``validateTables(_:path:version:)``); a writer
    /// needs more. A column's declared type decides how SQLite stores a value (a `REAL` column
    /// declared `REAM` keeps 1800000000.0 as an integer), so a flipped byte in the schema would
    /// make it write rows that no longer match their checksums; a migration recorded as missing
    /// would be run again after the file was opened for writing, and fail half-way.
    static func checkExactSchema(_ db: Database, path: String, version: Int) throws {
        guard let expected = expectedSchemas[version] else {
            throw LogError.damage(in: path, "format version \(version) is not one Rewind writes")
        }
        let schema = try Self.schema(of: db)
        if let name = Set(schema.keys).union(expected.schema.keys).sorted().first(where: { schema[$0] != expected.schema[$0] }) {
            throw LogError.damage(in: path, "its schema is not the one Rewind writes (\(name) differs)")
        }
        let applied = try String.fetchAll(db, sql: "SELECT CAST(identifier AS TEXT) FROM grdb_migrations ORDER BY 1")
        guard applied == expected.migrations else {
            throw LogError.damage(in: path, "its recorded migrations (\(applied.joined(separator: ", "))) do not match format version \(version)")
        }
    }

    /// What each format version's migrations create, built once in memory from the migrator.
    private static let expectedSchemas: [Int: (schema: [String: String], migrations: [String])] = {
        var schemas: [Int: (schema: [String: String], migrations: [String])] = [:]
        let identifiers = migrator.migrations
        for (index, identifier) in identifiers.enumerated() {
            // Cannot fail: the migrations are this code's own, run on an empty database.
            guard let database = try? DatabaseQueue(), (try? migrator.migrate(database, upTo: identifier)) != nil,
                let schema = try? database.read({ db in try Self.schema(of: db) })
            else { continue }
            schemas[index + 1] = (schema, Array(identifiers[...index]).sorted())
        }
        return schemas
    }()

    /// Each schema object's kind and name, with its `CREATE` statement (empty for SQLite's
    /// automatic indexes).
    private static func schema(of db: Database) throws -> [String: String] {
        // Cast: in a damaged file, any of them may hold a value of another type.
        let rows = try Row.fetchAll(
            db, sql: "SELECT CAST(type AS TEXT) || ' ' || CAST(name AS TEXT) AS what, CAST(coalesce(sql, '') AS TEXT) AS sql FROM sqlite_master")
        return Dictionary(try rows.map { row in (try row.stored("what") as String? ?? "", try row.stored("sql") as String? ?? "") }) { first, _ in
            first
        }
    }
}
