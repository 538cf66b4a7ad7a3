import Foundation
import PhotoApp
import RewindCore

/// Random `Zoo`s from a seed: every member set to a random value, or left `nil`.
struct ZooGenerator {
    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    private mutating func next() -> UInt64 { random.next() }
    private mutating func chance() -> Bool { next() % 2 == 0 }
    private mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    private mutating func text() -> String {
        ["", "a", "héllo", "line\nbreak", "\"quoted\"", "🦉", "\u{0}"][int(0...6)]
    }

    private mutating func double() -> Double {
        [0.0, -0.0, 3.0, 0.1, -1e300, Double.leastNonzeroMagnitude, Double(int(-1000...1000)) / 7][int(0...6)]
    }

    private mutating func nested() -> Nested {
        Nested(name: text(), values: (0..<int(0...3)).map { _ in int(-5...5) }, child: chance() ? [text()] : nil)
    }

    mutating func event(depth: Int = 0) -> Event {
        switch int(0...(depth > 1 ? 4 : 7)) {
        case 0: .tapped
        case 1: .typed(text())
        case 2: .moved(from: int(-3...3), to: chance() ? int(0...9) : nil)
        case 3: .mixed(int(0...9), label: text(), chance() ? double() : nil)
        case 4: .keyword(in: int(0...3), let: chance())
        case 5: .nested(nested())
        case 6: .wrapped(event(depth: depth + 1))
        default: .list((0..<int(0...2)).map { _ in nested() })
        }
    }

    mutating func zoo() -> Zoo {
        var zoo = Zoo()
        zoo.text = text()
        zoo.flag = chance()
        zoo.count = int(-1_000_000...1_000_000)
        zoo.ratio = double()
        zoo.small = [0.1, -2.5, 0, 1e10][int(0...3)]
        zoo.tiny = Int8(int(-128...127))
        zoo.huge = next() >> 1
        if chance() { zoo.maybeText = text() }
        if chance() { zoo.maybeFlag = chance() }
        if chance() { zoo.maybeCount = int(-9...9) }
        if chance() { zoo.maybeRatio = double() }
        zoo.maybeMaybe = [nil, .some(nil), .some(int(0...9))][int(0...2)]
        if chance() { zoo.inferredOptional = int(0...9) }
        zoo.date = Date(timeIntervalSinceReferenceDate: double())
        zoo.data = Data((0..<int(0...5)).map { _ in UInt8(int(0...255)) })
        if chance() { zoo.url = URL(string: "https://example.com/\(int(0...99))") }
        zoo.decimal = Decimal(int(-99...99)) / 4
        zoo.tags = Set((0..<int(0...4)).map { _ in text() })
        zoo.scores = Dictionary((0..<int(0...3)).map { _ in (text(), int(0...9)) }, uniquingKeysWith: +)
        zoo.byNumber = Dictionary((0..<int(0...3)).map { _ in (int(-9...9), text()) }, uniquingKeysWith: +)
        zoo.nested = nested()
        if chance() { zoo.maybeNested = nested() }
        zoo.nestedList = (0..<int(0...3)).map { _ in nested() }
        if chance() { zoo.maybeNestedList = (0..<int(0...2)).map { _ in nested() } }
        zoo.plain = Plain(value: int(0...9))
        zoo.plainList = (0..<int(0...2)).map { _ in Plain(value: int(0...9)) }
        zoo.kind = Kind.allCases[int(0...1)]
        zoo.level = Level.allCases[int(0...1)]
        zoo.event = event()
        zoo.events = (0..<int(0...3)).map { _ in event() }
        zoo.generic = [Box<Nested>.empty, .full(nested()), .many([nested()], count: int(0...3))][int(0...2)]
        zoo.secret = Secret(text())
        zoo.default = text()
        zoo.é = int(0...9)
        zoo.z = int(0...9)
        zoo.Z = int(0...9)
        zoo.observed = int(0...9)
        zoo.setHidden(int(0...9), readOnly: text())
        return zoo
    }
}
