import RewindReplay
import Testing

/// ddmin over plain numbers: what it keeps, and that each candidate is tested once.
@Suite struct DeltaDebuggingTests {
    @Test func findsTheTwoItemsThatTogetherFail() throws {
        var tested: [[Int]] = []
        var search = DeltaDebugging<Int>(test: { candidate in
            tested.append(candidate)
            return candidate.contains(17) && candidate.contains(803)
        })
        #expect(try search.minimize(Array(0..<1_000)) == [17, 803])
        #expect(search.tests == tested.count)
        #expect(Set(tested).count == tested.count, "no candidate tested twice")
        #expect(search.tests < 200, "\(search.tests) tests")
    }

    @Test func keepsOrderAndIsOneMinimal() throws {
        let needed: Set = [3, 4, 9]
        var search = DeltaDebugging<Int>(test: { needed.isSubset(of: $0) })
        let result = try search.minimize(Array(0..<12))
        #expect(result == [3, 4, 9])
        for index in result.indices {
            var fewer = result
            fewer.remove(at: index)
            #expect(!needed.isSubset(of: fewer))
        }
    }

    @Test func aSingleFailingItemStaysAndATestsErrorIsThrown() throws {
        var one = DeltaDebugging<Int>(test: { _ in true })
        #expect(try one.minimize([42]) == [42])
        struct Broken: Error {}
        var failing = DeltaDebugging<Int>(test: { _ in throw Broken() })
        #expect(throws: Broken.self) { try failing.minimize([1, 2, 3]) }
    }
}
