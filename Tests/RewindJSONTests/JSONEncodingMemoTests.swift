import Foundation
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

    /// Under the summed rule, the memo takes a changed array's digest from its changed (and
    /// removed) elements alone.
    @Test(arguments: [1, 2, 3], [StateDigest.Rule.chained, .summed])
    func encodingWithAMemoGivesTheSameTreesAndDigests(seed: UInt64, rule: StateDigest.Rule) throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo(rule: rule)
        for screen in Self.screens(count: 300, seed: seed) {
            let plain = try encoder.encode(screen)
            let memoized = try encoder.encode(screen, memo: memo)
            #expect(memoized == plain)
            #expect(memo.digest(of: memoized) == plain.digest(by: rule))
        }
    }

    /// As a replay steps: one value mutated in place, each tree dropped once compared, so the
    /// memo's copies and trees are rewritten in place too.
    @Test(arguments: [4, 5], [StateDigest.Rule.chained, .summed])
    func aValueMutatedInPlaceEncodesAsWithoutAMemo(seed: UInt64, rule: StateDigest.Rule) throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo(rule: rule)
        var random = SplitMix64(seed: seed)
        var screen = Self.screens(count: 0, seed: seed)[0]
        for step in 0..<300 {
            let index = Int(random.next() % UInt64(screen.items.count))
            switch random.next() % 5 {
            case 0: screen.items[index].title = "edit \(step)"
            case 1: screen.items.insert(Item(id: 2_000 + step, title: "new", tags: []), at: index)
            case 2: if screen.items.count > 1 { screen.items.remove(at: index) }
            case 3: screen.items.removeLast(Swift.min(3, screen.items.count - 1))
            default: screen.items[index].tags.append("t\(step)")
            }
            let memoized = try encoder.encode(screen, memo: memo)
            let plain = try encoder.encode(screen)
            #expect(memoized == plain)
            #expect(memo.digest(of: memoized) == plain.digest(by: rule))
        }
    }

    /// The memo keeps a copy of its own: the encoded value's next mutation happens in place
    /// instead of copying the whole array, which it shared with the memo before.
    @Test func theEncodedArrayIsNotSharedWithTheMemo() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var screen = Self.screens(count: 0, seed: 1)[0]
        for step in 0..<3 {
            _ = try encoder.encode(screen, memo: memo)
            let before = screen.items.withUnsafeBufferPointer { $0.baseAddress }
            screen.items[step].title = "renamed"
            #expect(screen.items.withUnsafeBufferPointer { $0.baseAddress } == before)
        }
    }

    /// As a recorder steps: each tree held until the next one is diffed against it. The patch
    /// the memo helps take is the plain one, whatever changed (elements, lengths, the rest).
    @Test(arguments: [6, 7, 8])
    func thePatchTakenWithTheMemosChangesIsThePlainOne(seed: UInt64) throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var previous: JSONValue?
        for screen in Self.screens(count: 300, seed: seed) {
            let tree = try encoder.encode(screen, memo: memo)
            if let previous {
                #expect(JSONPatch.between(previous, tree, changesFrom: memo) == JSONPatch.between(previous, tree))
            }
            previous = tree
        }
    }

    /// A tree that was not the one encoded before the memo's last is diffed whole: the memo's
    /// changes are from the last tree only.
    @Test func aPatchFromAnOlderTreeIsTheWholeDiff() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var screen = Self.screens(count: 0, seed: 1)[0]
        let first = try encoder.encode(screen, memo: memo)
        screen.items[3].title = "three"
        _ = try encoder.encode(screen, memo: memo)
        screen.items[40].title = "forty"
        let third = try encoder.encode(screen, memo: memo)
        #expect(
            JSONPatch.between(first, third, changesFrom: memo).operations == [
                .set(JSONPath("items[3].title"), "three"), .set(JSONPath("items[40].title"), "forty"),
            ])
    }

    @Test func unchangedElementsShareTheirTrees() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var screen = Self.screens(count: 0, seed: 1)[0]
        let first = try encoder.encode(screen, memo: memo)
        screen.items[7].title = "changed"
        let second = try encoder.encode(screen, memo: memo)
        guard case let .object(a) = first, case let .object(b) = second,
            case let .array(before)? = a["items"], case let .array(after)? = b["items"]
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(JSONPatch.between(first, second).operations == [.set(JSONPath("items[7].title"), "changed")])
        #expect(before[6] == after[6] && before[7] != after[7])
    }
}

/// Elements copied on write keep their values but not the padding between their fields: the
/// memo still knows them unchanged.
@Suite struct MemoPaddingTests {
    /// Counts the encodes of ``Flagged`` values, passed in the encoder's `userInfo`.
    final class EncodeCount: @unchecked Sendable {
        // Sendable by hand: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }

    static let countKey = CodingUserInfoKey(rawValue: "encodeCount")!

    /// Seven bytes of padding after `flag`, before `name`.
    struct Flagged: Encodable {
        var flag: Bool
        var name: String
        var count: Int

        func encode(to encoder: any Encoder) throws {
            (encoder.userInfo[MemoPaddingTests.countKey] as? EncodeCount)?.increment()
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(flag, forKey: .flag)
            try container.encode(name, forKey: .name)
            try container.encode(count, forKey: .count)
        }

        enum CodingKeys: String, CodingKey { case flag, name, count }
    }

    struct List: Encodable {
        var items: [Flagged]
    }

    /// A copy of `items` made field by field into memory filled with `fill`, as a copy on
    /// write may make it: the padding keeps what the memory held.
    static func copied(_ items: [Flagged], fill: UInt8) -> [Flagged] {
        [Flagged](unsafeUninitializedCapacity: items.count) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.initializeMemory(as: UInt8.self, repeating: fill)
            for (index, item) in items.enumerated() {
                let element = raw.baseAddress! + index * MemoryLayout<Flagged>.stride
                (element + MemoryLayout<Flagged>.offset(of: \.flag)!).initializeMemory(as: Bool.self, repeating: item.flag, count: 1)
                (element + MemoryLayout<Flagged>.offset(of: \.name)!).initializeMemory(as: String.self, repeating: item.name, count: 1)
                (element + MemoryLayout<Flagged>.offset(of: \.count)!).initializeMemory(as: Int.self, repeating: item.count, count: 1)
            }
            count = items.count
        }
    }

    @Test func elementsThatDifferOnlyInPaddingAreNotEncodedAgain() throws {
        let counter = EncodeCount()
        var encoder = JSONValueEncoder()
        encoder.userInfo[Self.countKey] = counter
        let memo = JSONEncodingMemo()
        let items = Self.copied((0..<100).map { Flagged(flag: $0 % 2 == 0, name: "item \($0) of the list", count: $0) }, fill: 0x00)
        _ = try encoder.encode(List(items: items), memo: memo)
        #expect(counter.value == 100)

        var next = Self.copied(items, fill: 0xAB)
        next[40].count = -1
        let differingBytes = items.withUnsafeBytes { a in next.withUnsafeBytes { b in zip(a, b).filter { $0 != $1 }.count } }
        #expect(differingBytes > 100 * 7, "the copies differ in every padding byte, so the test can fail")
        let memoized = try encoder.encode(List(items: next), memo: memo)
        #expect(counter.value == 101, "only the changed element is encoded again")
        let fresh = try JSONValueEncoder().encode(List(items: next))
        #expect(memoized == fresh)
        #expect(memo.digest(of: memoized) == fresh.digest)
    }
}

/// The masks of written bytes the memo compares elements on after a change of padding.
@Suite struct WrittenBytesTests {
    typealias Flagged = MemoPaddingTests.Flagged

    @Test func theMaskLeavesOutPaddingOnly() {
        let size = MemoryLayout<Flagged>.size
        var mask = [UInt8](repeating: 0x55, count: size)
        mask.withUnsafeMutableBytes { WrittenBytes.mask(of: Flagged(flag: true, name: "a", count: 1), into: $0.baseAddress!) }
        let padding = (1..<MemoryLayout<Flagged>.offset(of: \.name)!).map { mask[$0] }
        #expect(padding == [UInt8](repeating: 0, count: 7))
        #expect(mask.enumerated().allSatisfy { index, byte in (1..<8).contains(index) || byte == 0xFF })
    }

    /// A case that writes fewer bytes than another: `nil` leaves the image's bytes but one word.
    struct Pictured: Encodable {
        struct Image: Encodable {
            var url: String
            var width: Int
        }
        var flag: Bool
        var image: Image?
    }

    /// `value` copied into memory filled with `fill`, as a copy on write may make it.
    static func copied<Value>(_ value: Value, fill: UInt8) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Value>.stride, alignment: MemoryLayout<Value>.alignment)
        memory.initializeMemory(as: UInt8.self, repeating: fill, count: MemoryLayout<Value>.stride)
        memory.initializeMemory(as: Value.self, repeating: value, count: 1)
        return memory
    }

    @Test(arguments: [
        (Pictured(flag: true, image: nil), Pictured(flag: true, image: nil), true),
        (Pictured(flag: true, image: nil), Pictured(flag: true, image: .init(url: "https://photos.example/1.jpg", width: 0)), false),
        (Pictured(flag: true, image: .init(url: "https://photos.example/1.jpg", width: 0)), Pictured(flag: true, image: nil), false),
        (Pictured(flag: true, image: .init(url: "a", width: 3)), Pictured(flag: true, image: .init(url: "a", width: 4)), false),
        (Pictured(flag: false, image: nil), Pictured(flag: true, image: nil), false),
    ])
    func valuesAgreeOnTheFirstOnesWrittenBytesExactlyWhenEqual(first: Pictured, second: Pictured, equal: Bool) {
        let size = MemoryLayout<Pictured>.size
        var mask = [UInt8](repeating: 0, count: size)
        mask.withUnsafeMutableBytes { WrittenBytes.mask(of: first, into: $0.baseAddress!) }
        for (firstFill, secondFill) in [(UInt8(0x00), UInt8(0xFF)), (0xFF, 0x00), (0xAB, 0xAB)] {
            let a = Self.copied(first, fill: firstFill)
            let b = Self.copied(second, fill: secondFill)
            defer {
                a.assumingMemoryBound(to: Pictured.self).deinitialize(count: 1)
                b.assumingMemoryBound(to: Pictured.self).deinitialize(count: 1)
                a.deallocate()
                b.deallocate()
            }
            #expect(mask.withUnsafeBytes { WrittenBytes.equal(a, b, mask: $0.baseAddress!, size: size) } == equal)
        }
    }

    @Test func afterAnAppendTheElementsDifferingInPaddingAreStillNotEncodedAgain() throws {
        let counter = MemoPaddingTests.EncodeCount()
        var encoder = JSONValueEncoder()
        encoder.userInfo[MemoPaddingTests.countKey] = counter
        let memo = JSONEncodingMemo()
        let original = (0..<50).map { Flagged(flag: $0 % 3 == 0, name: "item \($0) of the list", count: $0) }
        _ = try encoder.encode(MemoPaddingTests.List(items: MemoPaddingTests.copied(original, fill: 0x00)), memo: memo)
        var grown = original + [Flagged(flag: true, name: "added", count: 50)]
        grown[10].name = "renamed"
        let next = MemoPaddingTests.copied(grown, fill: 0xCD)
        _ = try encoder.encode(MemoPaddingTests.List(items: next), memo: memo)
        #expect(counter.value == 50 + 2, "the renamed and the added element only")
        // And once more at the same length, the padding changed again: the masks went along.
        var again = MemoPaddingTests.copied(next, fill: 0x11)
        again[20].flag.toggle()
        let memoized = try encoder.encode(MemoPaddingTests.List(items: again), memo: memo)
        #expect(counter.value == 50 + 3)
        #expect(memoized == (try JSONValueEncoder().encode(MemoPaddingTests.List(items: again))))
    }
}

/// What a memo stores must depend on the values alone, never on how a type implements `==`.
@Suite struct MemoValueTests {
    /// An `Identifiable`-style model whose `==` compares only its id, as many apps write it.
    struct Note: Codable, Equatable {
        var id: Int
        var title: String
        static func == (lhs: Note, rhs: Note) -> Bool { lhs.id == rhs.id }
    }

    /// A memo remembers the arrays below the top-level value.
    struct Screen<Element: Codable & Equatable>: Codable, Equatable {
        var elements: [Element]
    }

    @Test func anElementWhoseEqualsComparesOnlyItsIDKeepsItsNewTitle() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        var screen = Screen(elements: [Note(id: 1, title: "milk"), Note(id: 2, title: "eggs")])
        _ = try encoder.encode(screen, memo: memo)
        screen.elements[1].title = "bread"
        #expect(screen.elements[1] == Note(id: 2, title: "eggs"), "the type's == ignores the title")
        let memoized = try encoder.encode(screen, memo: memo)
        #expect(memoized.canonicalString == #"{"elements":[{"id":1,"title":"milk"},{"id":2,"title":"bread"}]}"#)
        #expect(memo.digest(of: memoized) == (try encoder.encode(screen)).digest)
    }

    @Test func negativeZeroTurnedToZeroIsEncodedAgain() throws {
        let encoder = JSONValueEncoder()
        let memo = JSONEncodingMemo()
        _ = try encoder.encode(Screen(elements: [-0.0]), memo: memo)
        let memoized = try encoder.encode(Screen(elements: [0.0]), memo: memo)
        let fresh = try encoder.encode(Screen(elements: [0.0]))
        #expect(memoized == fresh)
        #expect(memo.digest(of: memoized) == fresh.digest)
        #expect(fresh.digest != (try encoder.encode(Screen(elements: [-0.0]))).digest, "-0.0 and 0.0 are different values")
    }
}

/// Sets and dictionaries with other keys than strings and integers list their contents in
/// hash order; the encoder sorts them, so equal values give equal bytes in every process.
@Suite struct UnorderedCollectionTests {
    struct Tag: Codable, Hashable {
        var name: String
    }

    struct Board: Codable, Equatable {
        var tags: Set<String>
        var counts: [Tag: Int]
    }

    @Test func equalSetsAndDictionariesGiveEqualTreesWhateverTheirHashOrder() throws {
        let names = (0..<500).map { "tag-\($0)" }
        var small = Set<String>()
        for name in names { small.insert(name) }
        var roomy = Set<String>(minimumCapacity: 20_000)
        for name in names.reversed() { roomy.insert(name) }
        #expect(Array(small) != Array(roomy), "the two sets iterate in different orders, so the test can fail")

        var counts = [Tag: Int]()
        var roomyCounts = [Tag: Int](minimumCapacity: 20_000)
        for (index, name) in names.enumerated() {
            counts[Tag(name: name)] = index
            roomyCounts[Tag(name: name)] = index
        }
        #expect(Array(counts.keys) != Array(roomyCounts.keys))

        let encoder = JSONValueEncoder()
        let a = try encoder.encode(Board(tags: small, counts: counts))
        let b = try encoder.encode(Board(tags: roomy, counts: roomyCounts))
        #expect(a == b)
        #expect(a.digest == b.digest)
        #expect(try encoder.encode(small) == encoder.encode(roomy), "at the top level too")
        #expect(try encoder.encode(Board(tags: small, counts: counts), memo: JSONEncodingMemo()) == a)
    }

    @Test func theOrderIsThatOfTheCanonicalBytes() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Set(["b", "a", "c"])).canonicalString == #"["a","b","c"]"#)
        #expect(try encoder.encode([Tag(name: "b"): 2, Tag(name: "a"): 1]).canonicalString == #"[{"name":"a"},1,{"name":"b"},2]"#)
        #expect(try encoder.encode(["b": 2, "a": 1]).canonicalString == #"{"a":1,"b":2}"#, "string keys stay an object")
        #expect(try JSONValueDecoder().decode([Tag: Int].self, from: encoder.encode([Tag(name: "b"): 2])) == [Tag(name: "b"): 2])
    }
}
