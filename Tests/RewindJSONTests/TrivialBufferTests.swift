import Testing

@testable import RewindJSON

@Suite struct TrivialBufferTests {
    private func elements(of buffer: borrowing TrivialBuffer<Int>) -> [Int] {
        buffer.withElements { Array($0) }
    }

    @Test func appendsGrowPastTheCapacityAndKeepTheOrder() {
        var buffer = TrivialBuffer<Int>(capacity: 1)
        let wasEmpty = buffer.isEmpty
        #expect(wasEmpty)
        for value in 0..<100 { buffer.append(value * 3) }
        #expect(buffer.count == 100)
        #expect(elements(of: buffer) == (0..<100).map { $0 * 3 })
        #expect(buffer.last == 297)
    }

    @Test func removeLastTakesTheElementsInReverse() {
        var buffer = TrivialBuffer<Int>(capacity: 4)
        for value in [7, 8, 9] { buffer.append(value) }
        #expect(buffer.removeLast() == 9)
        #expect(buffer.removeLast() == 8)
        #expect(buffer.last == 7 && buffer.count == 1)
        buffer.append(10)
        #expect(elements(of: buffer) == [7, 10])
    }

    @Test func writesThroughAPointerStay() {
        var buffer = TrivialBuffer<Int>(capacity: 2)
        for value in [1, 2, 3] { buffer.append(value) }
        buffer.pointer(at: 1).pointee = 20
        #expect(elements(of: buffer) == [1, 20, 3])
    }

    @Test func removeAllKeepsTheAllocation() {
        var buffer = TrivialBuffer<Int>(capacity: 2)
        for value in 0..<10 { buffer.append(value) }
        let base = buffer.base
        buffer.removeAll()
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
        for value in 0..<10 { buffer.append(value + 100) }
        #expect(buffer.base == base, "no allocation for as many elements as before")
        #expect(elements(of: buffer) == Array(100..<110))
    }
}
