import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import Testing

@testable import RewindReplay

/// How `write-test` writes recorded values as Swift: exactly, or as their recorded JSON.
@Suite struct SwiftSpellerTests {
    enum Shape: Codable, Equatable {
        case idle
        case circle(radius: Double)
        case box(Int, height: Int)
        case labelled(User?)
    }

    /// Plain `Codable`, so nothing says which initializer it has.
    struct Point: Codable, Equatable {
        var x: Int
        var y: Int
    }

    enum Raw: String, Codable {
        case first = "the first"
    }

    func spelled(_ value: some Encodable, prefersJSON: Bool = false) throws -> String {
        var speller = SwiftSpeller(prefersJSON: prefersJSON)
        return speller.spell(value, try JSONValueEncoder().encode(value))
    }

    @Test func stringsEscapeWhatEndsALiteralOrHidesInTheFile() throws {
        #expect(try spelled("a\"b\\c\nd\t\u{202E}e\u{0}f\u{200B}é") == #""a\"b\\c\nd\t\u{202E}e\0f\u{200B}é""#)
    }

    @Test func numbersAreWrittenAsRecorded() throws {
        #expect(try spelled(9_007_199_254_740_993) == "9007199254740993")
        #expect(try spelled(-0.1) == "-0.1")
        #expect(try spelled(1e-7) == "1e-07")
        #expect(try spelled(UInt8(255)) == "255")
        #expect(try spelled(true) == "true")
    }

    @Test func foundationValuesThroughTheirInitializers() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try spelled(uuid) == #"UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!"#)
        #expect(try spelled(Date(timeIntervalSinceReferenceDate: 12.5)) == "Date(timeIntervalSinceReferenceDate: 12.5)")
        #expect(try spelled(URL(string: "https://example.com/a?b=1")) == #"URL(string: "https://example.com/a?b=1")!"#)
    }

    @Test func enumCasesWithTheirPayloadsLabelledAsDeclared() throws {
        #expect(try spelled(Shape.idle) == ".idle")
        #expect(try spelled(Shape.circle(radius: 2.5)) == ".circle(radius: 2.5)")
        #expect(try spelled(Shape.box(3, height: 4)) == ".box(3, height: 4)")
        #expect(try spelled(Shape.labelled(nil)) == ".labelled(nil)")
        #expect(try spelled(Raw.first) == ".first")
    }

    @Test func aStructThroughTheInitializerItsMacroNamesElseItsRecordedJSON() throws {
        #expect(try spelled(User(id: 2, username: "bob", displayName: "Bob")) == #"User(id: 2, username: "bob", displayName: "Bob")"#)
        #expect(try spelled(Point(x: 1, y: 2)) == ##"decodedFromRecordedJSON(#"{"x":1,"y":2}"#)"##)
        #expect(
            try spelled(Shape.labelled(User(id: 1, username: "a", displayName: "A")), prefersJSON: true)
                == ##"decodedFromRecordedJSON(#"{"labelled":{"_0":{"displayName":"A","id":1,"username":"a"}}}"#)"##)
    }

    @Test func collectionsInOrderAndDictionariesByKey() throws {
        #expect(try spelled([1, 2, 3]) == "[1, 2, 3]")
        #expect(try spelled(["b": 2, "a": 1]) == #"["a": 1, "b": 2]"#)
        #expect(try spelled([String: Int]()) == "[:]")
        #expect(try spelled(Set([1])) == ##"decodedFromRecordedJSON(#"[1]"#)"##)
    }

    @Test func aSecretAsItsPlaceholder() throws {
        #expect(try spelled(Secret("hunter22")) == "Secret(redactedLength: 8)")
    }

    @Test func recordedJSONTakesAsManyHashesAsItNeeds() {
        #expect(SwiftLiteral.raw("say \"# and \\#(1)") == ###"##"say "# and \#(1)"##"###)
        #expect(SwiftLiteral.raw("a\u{202E}b") == #""a\u{202E}b""#)
    }

    @Test func aSessionsNameAsAFunctionName() {
        #expect(SwiftLiteral.functionName("login-invalid-then-fixed") == "loginInvalidThenFixed")
        #expect(SwiftLiteral.functionName("2026 run") == "session2026Run")
        #expect(SwiftLiteral.functionName("default") == "defaultSession")
        #expect(SwiftLiteral.functionName("\u{202E}") == "session")
    }

    @Test func typeNamesWithoutTheirModules() {
        let nested = SwiftTypeName("TodoApp.TodoState.Filter")
        #expect(nested.spelled == "TodoState.Filter" && nested.modules == ["TodoApp"])
        let generic = SwiftTypeName("Swift.Array<PhotoApp.User>")
        #expect(generic.spelled == "Array<User>" && generic.modules == ["Swift", "PhotoApp"])
        #expect(SwiftTypeName("App.(unknown context at $1).Hidden").spelled == nil)
    }
}
