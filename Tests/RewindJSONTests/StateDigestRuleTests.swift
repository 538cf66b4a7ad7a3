import Testing

@testable import RewindJSON

/// The two rules for arrays' digests agree wherever a digest is taken: on a tree, on the text
/// tape and in the digest memo (the encoding memo's agreement is in `JSONEncodingMemoTests`).
@Suite struct StateDigestRuleTests {
    static let rules: [StateDigest.Rule] = [.chained, .summed]

    /// Writes `value` node by node, as a type that writes its own text does.
    static func write(_ value: JSONValue, to writer: inout JSONStateWriter) {
        switch value {
        case .null: writer.null()
        case let .bool(flag): writer.bool(flag)
        case let .int(number): writer.int(number)
        case let .double(number): writer.double(number)
        case let .string(text): writer.string(text)
        case let .array(elements):
            writer.beginArray()
            for element in elements { write(element, to: &writer) }
            writer.endArray()
        case let .object(object):
            writer.beginObject()
            for (key, member) in object {
                writer.key(key)
                write(member, to: &writer)
            }
            writer.endObject()
        }
    }

    @Test(arguments: rules)
    func theTextTapeAndTheMemosTakeTheTreesDigest(rule: StateDigest.Rule) {
        var random = RandomJSON(seed: 21)
        let memo = JSONDigestMemo(rule: rule)
        for _ in 0..<200 {
            let value = random.value()
            let digest = value.digest(by: rule)
            for writesText in [true, false] {
                var writer = JSONStateWriter(writingText: writesText, rule: rule)
                Self.write(value, to: &writer)
                #expect(writer.digest == digest)
            }
            #expect(memo.digest(of: value) == digest)
        }
    }

    /// Fixed values: a change to how either rule hashes would make every stored digest of its
    /// log format wrong. The summed one was also computed by a separate script, in Python,
    /// from the rule as `StateDigest.Rule` states it.
    @Test func eachRulesDigestIsFixedAcrossRunsAndMachines() {
        let value: JSONValue = ["b": [true, nil], "a": 1]
        #expect(value.digest(by: .chained) == StateDigest(rawValue: 0x0a3f_a33d_86c1_b215))
        #expect(value.digest(by: .summed) == StateDigest(rawValue: 0x8a19_a3aa_3147_426d))
        let noArrays: JSONValue = ["a": 1, "b": ["c": "d", "e": nil]]
        #expect(noArrays.digest(by: .chained) == noArrays.digest(by: .summed))
    }

    @Test func theSummedRuleTellsOrderCountAndRepeatsApart() {
        let arrays: [JSONValue] = [[1, 2], [2, 1], [1, 2, 1], [1], [1, 1], [[1], 2], [1, [2]], [], [nil]]
        let digests = Set(arrays.map { $0.digest(by: .summed) })
        #expect(digests.count == arrays.count)
    }
}
