import Foundation
import RewindTestSupport

/// A photo-app-like state touching every shape `JSONEncoder` has an opinion about.
struct Album: Codable, Equatable {
    enum Status: String, Codable, Equatable {
        case draft, published
    }

    enum Event: Codable, Equatable {
        case idle
        case loaded(count: Int)
        case failed(String, code: Int)
        case moved(from: Int, to: Int)
    }

    struct Photo: Codable, Equatable {
        var id: Int
        var title: String
        var url: URL
        var taken: Date
        var rating: Double?
        var tags: [String]
        var status: Status
        var thumbnail: Data?
    }

    var name: String
    var subtitle: String?
    var photos: [Photo]
    var counts: [String: Int]
    var captions: [Int: String]
    var events: [Event]
    var matrix: [[Int]]
    var sparse: [Int?]
    var created: Date
    var price: Decimal
    var quantity: Decimal
    var small: Int8
    var unsigned: UInt64
    var ratio: Float
    var nested: [String: [String: [Int]]]

    static let sample = Album(
        name: "Trip / 2024 \"Alps\" ✓",
        subtitle: nil,
        photos: [
            Photo(
                id: 1, title: "Lake", url: URL(string: "https://example.com/a/1.jpg?size=large")!,
                taken: Date(timeIntervalSinceReferenceDate: 700_000_000.25), rating: 4.5,
                tags: ["water", "blue"], status: .published, thumbnail: Data([0, 1, 2, 254, 255])),
            Photo(
                id: 2, title: "Peak", url: URL(string: "file:///tmp/peak.png")!,
                taken: Date(timeIntervalSinceReferenceDate: -1.5), rating: nil,
                tags: [], status: .draft, thumbnail: nil),
        ],
        counts: ["views": 12, "likes": -3],
        captions: [10: "ten", 2: "two"],
        events: [.idle, .loaded(count: 2), .failed("timeout", code: -1), .moved(from: 0, to: 1)],
        matrix: [[1, 2], [], [3]],
        sparse: [1, nil, 3],
        created: Date(timeIntervalSinceReferenceDate: 123.456),
        price: Decimal(string: "3.14")!,
        quantity: Decimal(42),
        small: -8,
        unsigned: UInt64(Int.max),
        ratio: 0.1,
        nested: ["x": ["y": [1, 2]], "z": [:]]
    )
}

/// Records the coding paths a coder shows a value, to compare them with Foundation's.
final class PathRecorder: Sendable {
    static let key = CodingUserInfoKey(rawValue: "rewind.pathRecorder")!

    private let paths = Locked<[String]>([])

    var recorded: [String] { paths.withLock { $0 } }

    func record(_ codingPath: [any CodingKey]) {
        let text = codingPath.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }
        paths.withLock { $0.append(text.joined(separator: "/")) }
    }
}

/// A value that reports `codingPath` to the `PathRecorder` in `userInfo`.
struct Probe: Codable, Equatable {
    func encode(to encoder: any Encoder) throws {
        (encoder.userInfo[PathRecorder.key] as? PathRecorder)?.record(encoder.codingPath)
        var container = encoder.singleValueContainer()
        try container.encode("probe")
    }

    init() {}

    init(from decoder: any Decoder) throws {
        (decoder.userInfo[PathRecorder.key] as? PathRecorder)?.record(decoder.codingPath)
        _ = try decoder.singleValueContainer().decode(String.self)
    }
}

/// Probes in every position a coding path can take.
struct ProbeHolder: Codable, Equatable {
    enum Choice: Codable, Equatable {
        case one(Probe)
        case two(first: Probe, second: [Probe])
    }

    var direct = Probe()
    var list = [Probe(), Probe()]
    var optional: Probe? = Probe()
    var table = ["k": [Probe()]]
    var choices = [Choice.one(Probe()), .two(first: Probe(), second: [Probe()])]
}

/// Uses every container method by hand, including nested containers and super-encoders.
struct Manual: Codable, Equatable {
    enum Keys: String, CodingKey {
        case header, rows, inner, parent
    }

    enum InnerKeys: String, CodingKey {
        case flag
    }

    var header = "h"
    var rows = [[1, 2], [3]]
    var flag = true
    var parentValue = 7

    init() {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(header, forKey: .header)
        var rowsContainer = container.nestedUnkeyedContainer(forKey: .rows)
        for row in rows {
            var rowContainer = rowsContainer.nestedUnkeyedContainer()
            for value in row {
                try rowContainer.encode(value)
            }
        }
        var keyedRow = rowsContainer.nestedContainer(keyedBy: InnerKeys.self)
        try keyedRow.encode(flag, forKey: .flag)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try inner.encode(!flag, forKey: .flag)
        var parent = container.superEncoder(forKey: .parent).singleValueContainer()
        try parent.encode(parentValue)
        var base = container.superEncoder().unkeyedContainer()
        try base.encode("base")
        _ = rowsContainer.superEncoder()
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        header = try container.decode(String.self, forKey: .header)
        var rowsContainer = try container.nestedUnkeyedContainer(forKey: .rows)
        rows = []
        for _ in 0..<2 {
            var rowContainer = try rowsContainer.nestedUnkeyedContainer()
            var row: [Int] = []
            while !rowContainer.isAtEnd {
                row.append(try rowContainer.decode(Int.self))
            }
            rows.append(row)
        }
        flag = try rowsContainer.nestedContainer(keyedBy: InnerKeys.self).decode(Bool.self, forKey: .flag)
        parentValue = try container.superDecoder(forKey: .parent).singleValueContainer().decode(Int.self)
        var base = try container.superDecoder().unkeyedContainer()
        _ = try base.decode(String.self)
    }
}
