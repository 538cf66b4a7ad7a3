@testable import RewindJSON

/// Random JSON trees and random edits of them, for property tests.
///
/// Keys and strings come from small alphabets so that edits often collide with existing
/// keys, and arrays of id-bearing objects show up often enough to exercise id matching.
struct RandomJSON {
    var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(0...99) < percent
    }

    mutating func key() -> String {
        ["a", "b", "c", "id", "title", "é", "e\u{301}", "k k", "z"][int(0...8)]
    }

    mutating func scalar() -> JSONValue {
        switch int(0...6) {
        case 0: .null
        case 1: .bool(chance(50))
        case 2: .int(int(-3...3))
        case 3: .int(int(Int.min...Int.max))
        case 4: .double([0.1, -0.0, 0.0, 1.5e300, 3.0, -2.25][int(0...5)])
        case 5: .string(["", "a", "b", "line\nbreak", "quote\"", "ünï", "🎞"][int(0...6)])
        default: .string(key())
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        guard depth < 4, chance(60) else { return scalar() }
        switch int(0...2) {
        case 0: return .array((0..<int(0...5)).map { _ in value(depth: depth + 1) })
        case 1: return .object(object(depth: depth))
        default: return .array(identified(depth: depth))
        }
    }

    mutating func object(depth: Int) -> JSONObject {
        var object = JSONObject()
        for _ in 0..<int(0...5) {
            object[key()] = value(depth: depth + 1)
        }
        return object
    }

    /// Objects with unique ids, like a list of photos.
    mutating func identified(depth: Int) -> [JSONValue] {
        let ids = (0..<10).shuffled(using: &generator).prefix(int(0...6))
        return ids.map { id in
            var object = self.object(depth: depth + 1)
            object["id"] = .int(id)
            return .object(object)
        }
    }

    /// `value` with a few random edits somewhere inside.
    mutating func mutated(_ value: JSONValue, edits: Int) -> JSONValue {
        var result = value
        for _ in 0..<edits {
            result = mutatedOnce(result, depth: 0)
        }
        return result
    }

    private mutating func mutatedOnce(_ value: JSONValue, depth: Int) -> JSONValue {
        switch value {
        case .array(var elements) where !elements.isEmpty && chance(70):
            let index = int(0...(elements.count - 1))
            switch int(0...4) {
            case 0: elements.insert(self.value(depth: depth + 1), at: int(0...elements.count))
            case 1: elements.remove(at: index)
            case 2: elements.swapAt(index, int(0...(elements.count - 1)))
            default: elements[index] = mutatedOnce(elements[index], depth: depth + 1)
            }
            return .array(elements)
        case .object(var object) where !object.isEmpty && chance(70):
            let key = object.keys[int(0...(object.count - 1))]
            switch int(0...3) {
            case 0: object[self.key()] = self.value(depth: depth + 1)
            case 1: object[key] = nil
            default: object[key] = mutatedOnce(object[key] ?? .null, depth: depth + 1)
            }
            return .object(object)
        default:
            return chance(50) ? scalar() : self.value(depth: depth)
        }
    }
}
