import Testing
@testable import RewindJSON

@Suite struct JSONEncodingMemoTests {
    struct Item: Codable, Equatable {
        var id: Int
        var title: String
        var tags: [String]
    }

    struct Screen: Codable, Equatable {
        var name: String
        var items: [Item]
        var selected: Int?
    }

    /// A seeded sequence of screens, each a small edit of the one before.
    static func screens(count: Int, seed: UInt64) -> [Screen] {
        var random = SplitMix64(seed: seed)
        var screen = Screen(name: "list", items: (0..<50).map { Item(id: $0, title: "item \($0)", tags: []) }, selected: nil)
        var screens = [screen]
        for step in 0..<count {
            switch random.next() % 5 {
            case 0: screen.items[Int(random.next() % UInt64(screen.items.count))].title = "edit \(step)"
            case 1: screen.items.append(Item(id: 1_000 + step, title: "new", tags: ["t\(step)"]))
            case 2: if screen.items.count > 1 { screen.items.remove(at: Int(random.next() % UInt64(screen.items.count))) }
            case 3: screen.selected = screen.selected == nil ? step : nil
            default: screen.items[0].tags.append("x")
            }
            screens.append(screen)
        }
        return screens
    }

    @Test(arguments: [1, 2, 3])
    func encodingWithAMemoGivesTheSameTreesAndDigests(seed: UInt64) throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        for screen in Self.screens(count: 300, seed: seed) {
            let plain = try encoder.encode(screen)
            let memoized = try encoder.encode(screen, memo: memo)
            #expect(memoized == plain)
            #expect(memo.digest(of: memoized) == plain.digest)
        }
    }

    @Test func unchangedElementsShareTheirTrees() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var screen = Self.screens(count: 0, seed: 1)[0]
        let first = try encoder.encode(screen, memo: memo)
        screen.items[7].title = "changed"
        let second = try encoder.encode(screen, memo: memo)
        guard case let .object(a) = first, case let .object(b) = second,
              case let .array(before)? = a["items"], case let .array(after)? = b["items"] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(JSONPatch.between(first, second).operations == [.set(JSONPath("items[7].title"), "changed")])
        #expect(before[6] == after[6] && before[7] != after[7])
    }
}
