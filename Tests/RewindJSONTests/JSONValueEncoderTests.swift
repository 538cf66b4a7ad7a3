import Foundation
import RewindJSON
import Testing

/// What Foundation's text says, read back as a tree.
func foundationTree(_ value: some Encodable) throws -> JSONValue {
    try JSONValue(parsing: JSONEncoder().encode(value))
}

/// `value` with integral doubles turned into ints, which is how they read back from
/// `JSONEncoder`'s text: it writes `3.0` as `3`.
func integralDoublesAsInts(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let double) where double.rounded() == double && abs(double) < 0x1p53:
        .int(Int(double))
    case .array(let elements):
        .array(elements.map(integralDoublesAsInts))
    case .object(let object):
        .object(JSONObject(object.map { ($0.key, integralDoublesAsInts($0.value)) }))
    default:
        value
    }
}

class Shape: Encodable {
    var sides = 4

    enum CodingKeys: String, CodingKey {
        case sides
    }
}

/// Encodes its superclass through `superEncoder()`, as Foundation recommends.
final class Square: Shape {
    var size = 2.5

    enum SquareKeys: String, CodingKey {
        case size
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SquareKeys.self)
        try container.encode(size, forKey: .size)
        try super.encode(to: container.superEncoder())
    }
}

/// Shares its encoder with its superclass, so both write into one object.
final class Triangle: Shape {
    var label = "t"

    enum TriangleKeys: String, CodingKey {
        case label
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: TriangleKeys.self)
        try container.encode(label, forKey: .label)
    }
}

/// Encodes one key twice, and more keys than the small-object sort handles.
struct Overwrites: Encodable {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key(stringValue: "a"))
        for index in (0..<20).reversed() {
            try container.encode(index, forKey: Key(stringValue: "k\(index)"))
        }
        try container.encode(2, forKey: Key(stringValue: "a"))
    }
}

struct EncodesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

struct NonFinite: Encodable {
    var values: [String: [Double]]
}

@Suite struct JSONValueEncoderTests {
    @Test func matchesFoundationOnARichFixture() throws {
        let tree = try JSONValueEncoder().encode(Album.sample)
        #expect(tree == (try foundationTree(Album.sample)))
    }

    @Test func producesTheDocumentedShapes() throws {
        let tree = try JSONValueEncoder().encode(Album.sample)
        #expect(tree["subtitle"] == JSONValue?.none)
        #expect(tree["photos[0].taken"] == .double(700_000_000.25))
        #expect(tree["photos[0].thumbnail"] == "AAEC/v8=")
        #expect(tree["photos[0].url"] == "https://example.com/a/1.jpg?size=large")
        #expect(tree["photos[1]"]?.canonicalString == #"{"id":2,"status":"draft","tags":[],"taken":-1.5,"title":"Peak","url":"file:///tmp/peak.png"}"#)
        #expect(tree["captions"] == ["10": "ten", "2": "two"])
        #expect(
            tree["events"] == [
                ["idle": [:]],
                ["loaded": ["count": 2]],
                ["failed": ["_0": "timeout", "code": -1]],
                ["moved": ["from": 0, "to": 1]],
            ])
        #expect(tree["sparse"] == [1, nil, 3])
        #expect(tree["price"] == 3.14)
        #expect(tree["quantity"] == 42)
        #expect(tree["ratio"] == 0.1)
        #expect(tree["unsigned"] == .int(.max))
    }

    @Test func keepsIntegralDoublesAsDoublesWhereFoundationTextDropsTheFraction() throws {
        var album = Album.sample
        album.created = Date(timeIntervalSinceReferenceDate: 0)
        album.photos[0].rating = 3
        let tree = try JSONValueEncoder().encode(album)
        let foundation = try foundationTree(album)
        #expect(tree["created"] == .double(0))
        #expect(foundation["created"] == .int(0))
        #expect(integralDoublesAsInts(tree) == foundation)
    }

    @Test func encodesTopLevelPrimitivesAndSpecialTypes() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(5) == 5)
        #expect(try encoder.encode(UInt8(200)) == 200)
        #expect(try encoder.encode("s") == "s")
        #expect(try encoder.encode(Optional<Int>.none) == nil)
        #expect(try encoder.encode(2.5) == 2.5)
        #expect(try encoder.encode(Data("hi".utf8)) == "aGk=")
        #expect(try encoder.encode(Date(timeIntervalSinceReferenceDate: 1.5)) == 1.5)
        #expect(try encoder.encode(URL(string: "https://a.b/c")!) == "https://a.b/c")
        #expect(try encoder.encode(Decimal(string: "-0.5")!) == -0.5)
        #expect(try encoder.encode([Float(0.1), 2.5]) == [0.1, 2.5])
        #expect(try encoder.encode(Album.Status.draft) == "draft")
    }

    @Test func matchesFoundationForClassesAndHandWrittenContainers() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Square()) == (try foundationTree(Square())))
        #expect(try encoder.encode(Square()) == ["size": 2.5, "super": ["sides": 4]])
        #expect(try encoder.encode(Triangle()) == ["label": "t", "sides": 4])
        #expect(try encoder.encode(Manual()) == (try foundationTree(Manual())))
        #expect(
            try encoder.encode(Manual()).canonicalString
                == #"{"header":"h","inner":{"flag":false},"parent":7,"rows":[[1,2],[3],{"flag":true},{}],"super":["base"]}"#)
        #expect(try encoder.encode([EncodesNothing()]) == (try foundationTree([EncodesNothing()])))
        #expect(try encoder.encode(Overwrites()) == (try foundationTree(Overwrites())))
        #expect(try encoder.encode(Overwrites())["a"] == 2)
    }

    @Test func showsValuesTheirCodingPaths() throws {
        let ours = PathRecorder()
        var encoder = JSONValueEncoder()
        encoder.userInfo[PathRecorder.key] = ours
        _ = try encoder.encode(ProbeHolder())
        #expect(
            ours.recorded == [
                "direct", "list/Index 0#0", "list/Index 1#1", "optional", "table/k/Index 0#0",
                "choices/Index 0#0/one/_0", "choices/Index 1#1/two/first", "choices/Index 1#1/two/second/Index 0#0",
            ])
        // Foundation's encoder agrees, except that it leaves out the key of a nested
        // container ("one", "two" above), which its decoder does include.
        let theirs = PathRecorder()
        let foundation = JSONEncoder()
        foundation.userInfo[PathRecorder.key] = theirs
        _ = try foundation.encode(ProbeHolder())
        #expect(ours.recorded.map { $0.replacing(/\/(one|two)\//, with: "/") } == theirs.recorded)
    }

    @Test func rejectsIntegersBeyondInt() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["big": UInt64.max]) }
        do {
            _ = try JSONValueEncoder().encode(["big": [UInt64.max]])
        } catch let EncodingError.invalidValue(value, context) {
            #expect(value as? UInt64 == .max)
            #expect(context.codingPath.map(\.stringValue) == ["big", "Index 0"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func rejectsNonFiniteNumbersWithTheirPath(value: Double) {
        do {
            _ = try JSONValueEncoder().encode(NonFinite(values: ["x": [1, value]]))
            Issue.record("expected an error")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "x", "Index 1"])
            #expect(context.debugDescription == "Unable to encode Double.\(value) directly in JSON.")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Float.nan) }
    }

    @Test func rejectsATopLevelValueThatEncodesNothing() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(EncodesNothing()) }
    }
}
