import Foundation
import RewindLog
import RewindUpload

/// Where a team store is: a `postgres://` URL read by libpq's conventions.
///
/// `postgres://user[:password]@host[:port]/database[?sslmode=MODE]` (or `postgresql://`). A
/// password missing from the URL comes from `PGPASSWORD`, else from the password file
/// (`PGPASSFILE`, else `~/.pgpass`, read only when no one else can read it, as libpq does); a
/// missing user from `PGUSER`, else the login name; the port from `PGPORT`, else 5432; the
/// database is the user's name unless given; `sslmode` from the URL, else `PGSSLMODE`, else
/// `prefer`.
public struct TeamStoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq names it.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// Whether `text` names a team store rather than a log file.
    public static func isLocation(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// The URL without its password, for messages.
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    /// Reads `text` with the environment and files libpq reads.
    public init(
        _ text: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        passwordFile: String? = nil
    ) throws(StoreError) {
        func invalid(_ reason: String) -> StoreError {
            StoreError(.invalidLocation, location: "postgres://…", "invalid location: \(reason)")
        }
        guard Self.isLocation(text), let components = URLComponents(string: text) else {
            throw invalid("expected postgres://user@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host (postgres://user@host:port/database)") }
        self.host = host
        if let port = components.port {
            guard (1...65_535).contains(port) else { throw invalid("the port \(port) is not from 1 to 65535") }
            self.port = port
        } else if let text = environment["PGPORT"] {
            guard let port = Int(text), (1...65_535).contains(port) else { throw invalid("PGPORT \(text) is not a port") }
            self.port = port
        } else {
            self.port = 5432
        }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"] ?? NSUserName()
        guard !user.isEmpty else { throw invalid("no user") }
        self.user = user
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw invalid("a database name has no '/'") }
        database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        var mode = environment["PGSSLMODE"] ?? "prefer"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode": mode = item.value ?? ""
            case "application_name", "connect_timeout": continue
            default: throw invalid("unknown parameter \(item.name) (this rewind reads sslmode)")
            }
        }
        guard let tls = TLSMode(rawValue: mode) else {
            throw invalid("sslmode \(mode) is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.tls = tls
        let file = passwordFile ?? environment["PGPASSFILE"] ?? environment["HOME"].map { $0 + "/.pgpass" }
        password =
            components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
            ?? file.flatMap { Self.password(inFile: $0, host: host, port: self.port, database: database, user: user) }
    }

    /// The password a `.pgpass` file holds for the connection: its first line
    /// `host:port:database:user:password` whose fields match (`*` matches any; `\:` and `\\`
    /// escape). Nil when the file is missing, or others may read it (libpq ignores it then).
    static func password(inFile path: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? Int, mode & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":", fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
