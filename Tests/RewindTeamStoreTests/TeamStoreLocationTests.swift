import Foundation
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

@testable import RewindTeamStore

/// `postgres://` locations read as libpq reads them, without a server.
@Suite struct TeamStoreLocationTests {
    let home = ["HOME": "/nonexistent", "USER": "ada"]

    @Test func aFullURLGivesEveryPart() throws {
        let location = try TeamStoreLocation("postgres://rewind:s%40cret@db.example.com:6432/team?sslmode=require", environment: home)
        #expect(location.user == "rewind" && location.password == "s@cret" && location.host == "db.example.com")
        #expect(location.port == 6432 && location.database == "team" && location.tls == .require)
        #expect(location.description == "postgres://rewind@db.example.com:6432/team", "no password in messages")
    }

    @Test func whatTheURLLeavesOutComesFromTheEnvironmentAsInLibpq() throws {
        let location = try TeamStoreLocation(
            "postgresql://127.0.0.1", environment: home.merging(["PGPORT": "54329", "PGPASSWORD": "pw", "PGSSLMODE": "disable"]) { $1 })
        #expect(location.user == "ada" && location.database == "ada" && location.port == 54329)
        #expect(location.password == "pw" && location.tls == .disable)
        let defaults = try TeamStoreLocation("postgres://bob@localhost/x", environment: home)
        #expect(defaults.port == 5432 && defaults.tls == .prefer && defaults.password == nil)
    }

    @Test func aPasswordFileIsReadOnlyWhenNoOneElseMayReadIt() throws {
        let folder = try TemporaryDirectory()
        let file = folder.path("pgpass")
        try Data("# comment\nother:*:*:*:no\n127.0.0.1:54329:*:rewind:pa\\:ss\n*:*:*:*:fallback\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let location = try TeamStoreLocation("postgres://rewind@127.0.0.1:54329/team", environment: home, passwordFile: file)
        #expect(location.password == "pa:ss")
        let other = try TeamStoreLocation("postgres://eve@127.0.0.1:1/x", environment: home, passwordFile: file)
        #expect(other.password == "fallback")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(try TeamStoreLocation("postgres://rewind@127.0.0.1:54329/team", environment: home, passwordFile: file).password == nil)
    }

    @Test(arguments: [
        ("mysql://x", "invalid location: expected postgres://user@host:port/database"),
        ("postgres:///db", "invalid location: no host (postgres://user@host:port/database)"),
        ("postgres://a@h:70000/db", "invalid location: the port 70000 is not from 1 to 65535"),
        ("postgres://a@h/db?sslmode=maybe", "invalid location: sslmode maybe is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://a@h/db?user=b", "invalid location: unknown parameter user (this rewind reads sslmode)"),
        ("postgres://a@h/db/more", "invalid location: a database name has no '/'"),
    ])
    func aLocationThatCannotBeReadSaysWhy(text: String, message: String) {
        #expect(throws: StoreError(.invalidLocation, location: "postgres://…", message)) {
            try TeamStoreLocation(text, environment: home)
        }
    }
}
