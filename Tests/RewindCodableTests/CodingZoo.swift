import Foundation
import RewindCodable
import RewindCore

// Every shape `@RewindCodable` writes a coder for, with the member types that take each of
// its paths: scalars, optionals of them, marked and unmarked nested types, arrays, the types
// JSONEncoder treats specially, unordered collections and generics.

@RewindCodable
struct Zoo: Codable, Equatable {
    var text = ""
    var flag = false
    var count = 0
    var ratio = 0.0
    var small: Float = 0
    var tiny: Int8 = 0
    var huge: UInt64 = 0
    var maybeText: String?
    var maybeFlag: Bool?
    var maybeCount: Int?
    var maybeRatio: Double?
    var maybeMaybe: Int??
    var inferredOptional = Optional<Int>.none
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var data = Data()
    var url: URL?
    var decimal: Decimal = 0
    var tags: Set<String> = []
    var scores: [String: Int] = [:]
    var byNumber: [Int: String] = [:]
    var nested = Nested()
    var maybeNested: Nested?
    var nestedList: [Nested] = []
    var maybeNestedList: [Nested]?
    var plain = Plain(value: 0)
    var plainList: [Plain] = []
    var kind = Kind.first
    var level: Level = .low
    var event: Event = .tapped
    var events: [Event] = []
    var generic: Box<Nested> = .empty
    var secret = Secret("")
    var empty = Empty()
    var `default` = "keyword"
    // Keys whose byte order is not their order as Swift strings compare them.
    // swift-format-ignore: IdentifiersMustBeASCII
    var é = 0
    var z = 0
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var Z = 0
    private var hidden = 0
    private(set) var readOnly = ""
    var observed = 0 {
        didSet { _ = oldValue }
    }
    var computed: Int { count * 2 + hidden }

    mutating func setHidden(_ value: Int, readOnly text: String) {
        hidden = value
        readOnly = text
    }
    static let shared = 1
}

@RewindCodable
struct Nested: Codable, Equatable {
    var name = ""
    var values: [Int] = []
    var child: [String]?
}

/// A type without the macro: its members go through `Codable`.
struct Plain: Codable, Equatable {
    var value: Int
}

@RewindCodable
struct Empty: Codable, Equatable {}

/// Types written out in every way the macro reads them.
@RewindCodable
struct Spelled<Value: Codable & Equatable>: Codable, Equatable {
    var generic: Value
    var long: Optional<Int>
    var swiftString: Swift.String
    var optionals: [Int?]
    var byName: [String: Nested]
    var unwrapped: Int!
}

@RewindCodable
enum Kind: String, Codable, Equatable, CaseIterable {
    case first
    case second = "2nd"
}

@RewindCodable
enum Level: Int, Codable, Equatable, CaseIterable {
    case low = 1
    case high = 10
}

@RewindCodable
indirect enum Event: Codable, Equatable {
    case tapped
    case typed(String)
    case moved(from: Int, to: Int?)
    case mixed(Int, label: String, Double?)
    case nested(Nested)
    case wrapped(Event)
    case list([Nested])
    case keyword(in: Int, `let`: Bool)
}

@RewindCodable
enum Box<Value: Codable & Equatable>: Codable, Equatable {
    case empty
    case full(Value)
    case many([Value], count: Int)
}
