#if Servers
import Foundation
import RewindTestSupport
import Testing

@testable import RewindCollector
@testable import RewindTeamStore

/// The sign-ins of the sessions page, on a clock of the test's own: each lasts 8 hours from
/// its start and an hour from its last request, ends at sign-out, and the held ones are
/// bounded.
@Suite struct WebSessionsTests {
    @Test func aSignInLastsItsLifetimeAndEndsIdleOrSignedOut() async {
        let clock = Locked(1_000.0)
        let signIns = WebSessions(now: { clock.withLock { $0 } })
        let cookie = await signIns.begin(tokenID: "0123456789abcdef")
        #expect(cookie.utf8.count == 43 && cookie.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(await signIns.tokenID(of: cookie) == "0123456789abcdef")
        #expect(await signIns.tokenID(of: cookie + "x") == nil)
        #expect(await signIns.tokenID(of: String(cookie.dropLast()) + (cookie.hasSuffix("A") ? "B" : "A")) == nil)

        // Used every 59 minutes it lasts 8 hours from its start, no longer.
        for _ in 0..<8 {
            clock.withLock { $0 += 59 * 60 }
            #expect(await signIns.tokenID(of: cookie) != nil)
        }
        clock.withLock { $0 = 1_000 + WebSessions.lifetime }
        #expect(await signIns.tokenID(of: cookie) == nil)

        let idle = await signIns.begin(tokenID: "a")
        clock.withLock { $0 += WebSessions.idle }
        #expect(await signIns.tokenID(of: idle) == nil)

        let signedOut = await signIns.begin(tokenID: "b")
        await signIns.end(signedOut)
        #expect(await signIns.tokenID(of: signedOut) == nil)
        #expect(await signIns.count == 0)
    }

    /// The same rules in a team store (`rewind_sign_in`), where every collector on it finds
    /// them: a cookie's hash and a token's id, never either secret.
    @Test(.postgres) func aStoredSignInFollowsTheSameRules() async throws {
        let database = try FreshStore()
        // The wait for a connection only stops a hung test: in a full suite on two cores, one
        // store's first connection took longer than the default, 10 s.
        let (signIns, fourth) = try await TeamStore.withStore(try TeamStoreLocation(database.url), connectionWait: .seconds(600)) { store in
            let key = try await store.prepareSignIns()
            #expect(try await store.prepareSignIns() == key, "made once")
            let clock = Locked(1_800_000_000.0)
            var signIns = try await StoredSignIns.prepared(in: store)
            signIns.now = { clock.withLock { $0 } }
            let cookie = try await signIns.begin(tokenID: "0123456789abcdef")
            #expect(cookie.utf8.count == 43)
            #expect(try await signIns.tokenID(of: cookie, refreshing: true) == "0123456789abcdef")
            #expect(try await signIns.tokenID(of: cookie + "x", refreshing: true) == nil)
            #expect(try await signIns.tokenID(of: String(cookie.dropLast()) + (cookie.hasSuffix("A") ? "B" : "A"), refreshing: true) == nil)
            let rows = try TestServer.psql("SELECT token_id, length(key) FROM rewind_sign_in", database: database.name)
            #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "0123456789abcdef|32" && !rows.contains(cookie))

            // Used every 59 minutes it lasts 8 hours from its start, no longer; a look that does
            // not refresh (the access log's) does not keep it.
            for _ in 0..<8 {
                clock.withLock { $0 += 59 * 60 }
                #expect(try await signIns.tokenID(of: cookie, refreshing: true) != nil)
            }
            clock.withLock { $0 = 1_800_000_000 + WebSessions.lifetime }
            #expect(try await signIns.tokenID(of: cookie, refreshing: true) == nil)
            let idle = try await signIns.begin(tokenID: "a")
            clock.withLock { $0 += WebSessions.idle - 1 }
            #expect(try await signIns.tokenID(of: idle, refreshing: false) == "a")
            clock.withLock { $0 += 1 }
            #expect(try await signIns.tokenID(of: idle, refreshing: true) == nil)
            let signedOut = try await signIns.begin(tokenID: "b")
            try await signIns.end(signedOut)
            #expect(try await signIns.tokenID(of: signedOut, refreshing: true) == nil)
            #expect(try TestServer.psql("SELECT count(*) FROM rewind_sign_in", database: database.name).trimmingCharacters(in: .whitespacesAndNewlines) == "0")

            // At capacity the oldest goes, used or not.
            signIns.capacity = 3
            let first = try await signIns.begin(tokenID: "first")
            clock.withLock { $0 += 120 }
            let second = try await signIns.begin(tokenID: "second")
            clock.withLock { $0 += 120 }
            let third = try await signIns.begin(tokenID: "third")
            clock.withLock { $0 += 120 }
            #expect(try await signIns.tokenID(of: first, refreshing: true) == "first")
            let fourth = try await signIns.begin(tokenID: "fourth")
            #expect(try await signIns.tokenID(of: first, refreshing: true) == nil)
            for (id, token) in [(second, "second"), (third, "third"), (fourth, "fourth")] {
                #expect(try await signIns.tokenID(of: id, refreshing: true) == token)
            }

            return (signIns, fourth)
        }
        // A made-up cookie, of the right length but without the store's tag, is refused before
        // any query: with the store closed it is nil where a tagged one fails to be read.
        let madeUp = WebSessions.newID()
        #expect(!signIns.isTagged(madeUp) && signIns.isTagged(fourth))
        #expect(try await signIns.tokenID(of: madeUp, refreshing: true) == nil)
        try await signIns.end(madeUp)
        await #expect(throws: (any Error).self) { try await signIns.tokenID(of: fourth, refreshing: true) }
    }

    @Test func atCapacityTheOldestSignInGoes() async {
        let clock = Locked(1_000.0)
        let signIns = WebSessions(now: { clock.withLock { $0 } })
        let first = await signIns.begin(tokenID: "first")
        for index in 1..<WebSessions.capacity {
            clock.withLock { $0 += 0.001 }
            _ = await signIns.begin(tokenID: "t\(index)")
        }
        #expect(await signIns.count == WebSessions.capacity)
        let newest = await signIns.begin(tokenID: "newest")
        #expect(await signIns.count == WebSessions.capacity)
        #expect(await signIns.tokenID(of: first) == nil)
        #expect(await signIns.tokenID(of: newest) == "newest")
    }
}
#endif
