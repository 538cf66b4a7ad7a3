#if Servers
import Foundation
import RewindTestSupport
import Testing

@testable import RewindCollector

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
