import Foundation
import PhotoApp
import RewindCodable
import RewindCore
import RewindJSON
import RewindTesting
import Testing

/// The coders `@RewindCodable` writes build and read the same trees as the types' `Codable`.
struct TreeCodingAgreementTests {
    @Test func randomZoosAgreeWithCodable() throws {
        var generator = ZooGenerator(seed: 2026)
        let zoos = (0..<600).map { _ in generator.zoo() }
        try verifyTreeCoding(of: zoos)
        try verifyTreeCoding(of: zoos.map(\.event))
        try verifyTreeCoding(of: zoos.map(\.nested))
        try verifyTreeCoding(of: [Empty()])
        try verifyTreeCoding(of: Kind.allCases)
        try verifyTreeCoding(of: Level.allCases)
        try verifyTreeCoding(
            of: zoos.prefix(100).map {
                Spelled(
                    generic: $0.nested, long: $0.maybeCount, swiftString: $0.text, optionals: [$0.maybeCount, 1],
                    byName: [$0.text: $0.nested], unwrapped: $0.maybeCount)
            })
    }

    @Test func aZooTakesTheTreePath() throws {
        // The agreement above would hold trivially if both went through `Codable`.
        #expect((Zoo() as Any) is any JSONTreeCodable)
        #expect((Secret("") as Any) is any JSONTreeCodable)
        #expect(!((Plain(value: 1) as Any) is any JSONTreeCodable))
    }

    @Test func aDifferenceIsReportedWithWhereItIs() throws {
        let error = #expect(throws: TreeCodingFailure.self) { try verifyTreeCoding(of: [Disagreeing()]) }
        #expect(error?.step == "encodeTree(_:)")
        #expect(error?.description.contains("Disagreeing value #0") == true)
    }

    @Test func everyRecordedStateAndActionOfTheSeedFlowsAgrees() async throws {
        let sink = InMemorySink()
        await RandomSession(flow: "app", seed: 7, steps: 1_500)!.run(host: RecordingHost(sink: sink), start: Date(timeIntervalSince1970: 0))
        let session = try #require(sink.sessions.first)
        let decoder = JSONValueDecoder()
        var states: [AppState] = []
        var actions: [AppAction] = []
        for event in session.events {
            actions.append(try decoder.decode(AppAction.self, from: event.action))
            if let state = try session.state(at: event.step) { states.append(try decoder.decode(AppState.self, from: state)) }
        }
        #expect(states.count == session.events.count)
        try verifyTreeCoding(of: states)
        try verifyTreeCoding(of: actions)
        try verifyTreeCoding(of: states.map(\.login))
    }

    @Test func aCoderThatRefusesWhatCodableReadsIsReported() throws {
        let error = #expect(throws: TreeCodingFailure.self) { try verifyTreeCoding(of: [Refusing()]) }
        #expect(error?.step == "init(tree:_:)")
        #expect(error?.found == nil)
        #expect(error?.description.hasPrefix("Refusing value #0: init(tree:_:) refused a tree Codable reads") == true)
    }

    @Test func aTreeTheCoderRefusesIsDecodedByCodableWithItsError() throws {
        var codable = JSONValueDecoder()
        codable.prefersTreeCoding = false
        // An integer written as a double: the tree decoder refuses it, `Codable` reads it.
        let integral = try JSONValue(parsing: #"{"name":"n","values":[1.0]}"#)
        #expect(try JSONValueDecoder().decode(Nested.self, from: integral) == Nested(name: "n", values: [1]))
        // Two cases at once: both refuse it, with `Codable`'s own error.
        let twoCases = try JSONValue(parsing: #"{"tapped":{},"typed":{"_0":"x"}}"#)
        let tree = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Event.self, from: twoCases) }
        let byCodable = #expect(throws: DecodingError.self) { try codable.decode(Event.self, from: twoCases) }
        #expect(String(describing: tree) == String(describing: byCodable))
    }

    @Test func aValueNeitherCanEncodeFailsWithTheSameError() throws {
        var codable = JSONValueEncoder()
        codable.prefersTreeCoding = false
        for broken in [
            { $0.huge = .max }, { $0.ratio = .nan },
            {
                $0.nested.name = "x"
                $0.event = .mixed(1, label: "", .infinity)
            },
        ] as [(inout Zoo) -> Void] {
            var zoo = Zoo()
            broken(&zoo)
            let tree = #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(zoo) }
            let byCodable = #expect(throws: EncodingError.self) { try codable.encode(zoo) }
            #expect(String(describing: tree) == String(describing: byCodable))
        }
    }

    @Test func aDecodedSecretStillTellsWhenItIsRead() throws {
        let reads = SecretReads()
        var decoder = JSONValueDecoder()
        decoder.userInfo[.secretReads] = reads
        let state = try decoder.decode(LoginState.self, from: try JSONValueEncoder().encode(LoginState()))
        #expect(!reads.anyRead)
        _ = state.password.value
        #expect(reads.anyRead)
    }

    @Test func arraysEncodedWithAMemoMatchArraysEncodedWithout() throws {
        var generator = ZooGenerator(seed: 11)
        var zoo = generator.zoo()
        zoo.nestedList = (0..<40).map { Nested(name: "n\($0)", values: [$0]) }
        let memo = JSONEncodingMemo()
        let encoder = JSONValueEncoder()
        for step in 0..<60 {
            zoo.nestedList[step % 40].values.append(step)
            if step % 7 == 0 { zoo.nestedList.remove(at: step % zoo.nestedList.count) }
            if step % 5 == 0 { zoo.nestedList.append(Nested(name: "new\(step)")) }
            #expect(try encoder.encode(zoo, memo: memo) == encoder.encode(zoo))
        }
    }
}

/// A hand-written conformance that builds the wrong tree, for the failure's report.
private struct Disagreeing: Codable, JSONTreeCodable {
    var value = 1

    func encodeTree(_ encoder: JSONTreeEncoder) throws -> JSONValue {
        var object = encoder.object(capacity: 1)
        try object.encode(value + 1, forKey: "value")
        return object.finish()
    }

    init() {}

    init(tree: JSONValue, _ decoder: JSONTreeDecoder) throws {
        value = try decoder.object(tree, of: Self.self).decode(Int.self, forKey: "value")
    }
}

/// A hand-written conformance whose decoder refuses every tree: `JSONValueDecoder` would hide
/// that behind `Codable`, the check must not.
private struct Refusing: Codable, JSONTreeCodable {
    var value = 1

    func encodeTree(_ encoder: JSONTreeEncoder) throws -> JSONValue {
        var object = encoder.object(capacity: 1)
        try object.encode(value, forKey: "value")
        return object.finish()
    }

    init() {}

    init(tree: JSONValue, _ decoder: JSONTreeDecoder) throws {
        throw JSONTreeMismatch(Self.self, "refuses everything")
    }
}
