import Testing

@testable import RewindJSON

@Suite struct ParserStackTests {
    /// Counts the members released.
    final class Releases {
        var count = 0
    }

    final class Member {
        let value: Int
        let releases: Releases
        init(_ value: Int, _ releases: Releases) { (self.value, self.releases) = (value, releases) }
        deinit { releases.count += 1 }
    }

    @Test func membersComeOffFromAStartInOrder() {
        var stack = ParserStack<Int>(capacity: 8)
        for value in 1...5 { stack.append(value) }
        #expect(stack.last(above: 4) == 5)
        #expect(stack.last(above: 5) == nil)
        #expect(stack.removeAll(from: 2) == [3, 4, 5])
        #expect(stack.count == 2)
        #expect(stack.removeAll(from: 2) == [])
        #expect(stack.removeAll(from: 0) { "\($0)" } == ["1", "2"])
        #expect(stack.count == 0 && stack.last(above: 0) == nil)
    }

    @Test func growingKeepsEveryMemberAndReleasesEachOnce() {
        let releases = Releases()
        var taken: [Int] = []
        do {
            var stack = ParserStack<Member>(capacity: 1)
            for value in 0..<100 { stack.append(Member(value, releases)) }
            #expect(stack.count == 100 && releases.count == 0)
            taken = stack.removeAll(from: 40).map(\.value)
            #expect(releases.count == 60)
            #expect(stack.last(above: 0)?.value == 39)
        }
        #expect(taken == Array(40..<100))
        #expect(releases.count == 100, "the members left go with the stack")
    }
}
