import RewindCodableExpansion
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@RewindCodable` writes, and what it refuses.
struct RewindCodableMacroTests {
    let macros = ["RewindCodable": MacroSpec(type: RewindCodableExtension.self, conformances: ["JSONTreeEncodable", "JSONTreeDecodable"])]

    func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], line: UInt = #line) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message)) }, line: line)
    }

    @Test func aStructEncodesItsStoredPropertiesInKeyOrderAndDecodesTheOnesItCan() {
        expand(
            """
            @RewindCodable
            public struct Form: Codable {
                var name = ""
                var age: Int?
                let id: String
                let version = 2
                var `default`: [Int] = []
                var double: Int { 2 }
                static var shared = Form()
            }
            """,
            """

            public struct Form: Codable {
                var name = ""
                var age: Int?
                let id: String
                let version = 2
                var `default`: [Int] = []
                var double: Int { 2 }
                static var shared = Form()
            }

            extension Form: JSONTreeEncodable, JSONTreeDecodable {
                public func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
                    var object = encoder.object(capacity: 5)
                    try object.encode(self.`age`, forKey: "age")
                    try object.encode(self.`default`, forKey: "default")
                    try object.encode(self.`id`, forKey: "id")
                    try object.encode(self.`name`, forKey: "name")
                    try object.encode(self.`version`, forKey: "version")
                    return object.finish()
                }
                public init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
                    let object = try decoder.object(tree, of: Self.self)
                    self.`name` = try object.decode(forKey: "name")
                    self.`age` = try object.decode((Int?).self, forKey: "age")
                    self.`id` = try object.decode((String).self, forKey: "id")
                    self.`default` = try object.decode(([Int]).self, forKey: "default")
                }
                public func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
                    writer.beginObject()
                    try writer.member("age", self.`age`)
                    try writer.member("default", self.`default`)
                    try writer.member("id", self.`id`)
                    try writer.member("name", self.`name`)
                    try writer.member("version", self.`version`)
                    writer.endObject()
                }
                public static var initializerLabels: [String]? {
                    ["name", "age", "id", "default"]
                }
            }
            """)
    }

    /// `initializerLabels`, from which `rewind write-test` writes `Type(label: value, …)`: an
    /// initializer of the type's own with the stored properties' labels counts, one that takes
    /// something else does not (and hides the memberwise one), nor does a private property.
    @Test(arguments: [
        ("    init(id: Int, name: String) { self.id = id; self.name = name }", #"["id", "name"]"#),
        ("    init(name: String) { self.id = 0; self.name = name }", nil),
        ("    init?(id: Int, name: String) { return nil }", nil),
    ])
    func aStructNamesTheInitializerThatTakesItsStoredProperties(initializer: String, labels: String?) {
        let source = "@RewindCodable\nstruct S: Codable {\n    var id: Int\n    var name: String\n\(initializer)\n}"
        let labelsLine = labels.map { "\n    static var initializerLabels: [String]? {\n        \($0)\n    }" } ?? ""
        expand(
            source,
            """
            struct S: Codable {
                var id: Int
                var name: String
            \(initializer)
            }

            extension S: JSONTreeEncodable, JSONTreeDecodable {
                func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
                    var object = encoder.object(capacity: 2)
                    try object.encode(self.`id`, forKey: "id")
                    try object.encode(self.`name`, forKey: "name")
                    return object.finish()
                }
                init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
                    let object = try decoder.object(tree, of: Self.self)
                    self.`id` = try object.decode((Int).self, forKey: "id")
                    self.`name` = try object.decode((String).self, forKey: "name")
                }
                func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
                    writer.beginObject()
                    try writer.member("id", self.`id`)
                    try writer.member("name", self.`name`)
                    writer.endObject()
                }\(labelsLine)
            }
            """)
    }

    @Test func anEnumIsAnObjectOfItsCaseAroundItsAssociatedValues() {
        expand(
            """
            @RewindCodable
            enum Event: Codable {
                case tapped
                case typed(String)
                case moved(from: Int, Double?)
            }
            """,
            """

            enum Event: Codable {
                case tapped
                case typed(String)
                case moved(from: Int, Double?)
            }

            extension Event: JSONTreeEncodable, JSONTreeDecodable {
                func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
                    switch self {
                    case .`tapped`:
                        return encoder.caseObject("tapped", encoder.emptyObject)
                    case .`typed`(let v0):
                        var payload = encoder.nested(forKey: "typed").object(capacity: 1)
                        try payload.encode(v0, forKey: "_0")
                        return encoder.caseObject("typed", payload.finish())
                    case .`moved`(let v0, let v1):
                        var payload = encoder.nested(forKey: "moved").object(capacity: 2)
                        try payload.encode(v1, forKey: "_1")
                        try payload.encode(v0, forKey: "from")
                        return encoder.caseObject("moved", payload.finish())
                    }
                }
                init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
                    let (key, payload) = try decoder.caseObject(tree, of: Self.self)
                    switch key {
                    case "tapped":
                        _ = try decoder.object(payload, of: Self.self)
                        self = .`tapped`
                    case "typed":
                        let object = try decoder.object(payload, of: Self.self)
                        self = .`typed`(try object.decode((String).self, forKey: "_0"))
                    case "moved":
                        let object = try decoder.object(payload, of: Self.self)
                        self = .`moved`(from: try object.decode((Int).self, forKey: "from"), try object.decode((Double?).self, forKey: "_1"))
                    default:
                        _ = payload
                        throw decoder.unknownCase(key, of: Self.self)
                    }
                }
                func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
                    switch self {
                    case .`tapped`:
                        writer.caseObject("tapped") { _ in
                        }
                    case .`typed`(let v0):
                        try writer.caseObject("typed") { writer in
                            try writer.member("_0", v0)
                        }
                    case .`moved`(let v0, let v1):
                        try writer.caseObject("moved") { writer in
                            try writer.member("_1", v1)
                            try writer.member("from", v0)
                        }
                    }
                }
            }
            """)
    }

    @Test func aRawValueEnumIsItsRawValue() {
        expand(
            """
            @RewindCodable
            package enum Status: String, Codable {
                case idle, busy
            }
            """,
            """

            package enum Status: String, Codable {
                case idle, busy
            }

            extension Status: JSONTreeEncodable, JSONTreeDecodable {
                package func encodeTree(_ encoder: RewindJSON.JSONTreeEncoder) throws -> RewindJSON.JSONValue {
                    try encoder.encode(self.rawValue)
                }
                package init(tree: RewindJSON.JSONValue, _ decoder: RewindJSON.JSONTreeDecoder) throws {
                    guard let value = Self(rawValue: try decoder.decode(tree)) else {
                        throw RewindJSON.JSONTreeMismatch(Self.self, "no case of that raw value")
                    }
                    self = value
                }
                package func writeJSON(to writer: inout RewindJSON.JSONStateWriter) throws {
                    try writer.value(self.rawValue)
                }
            }
            """)
    }

    @Test(arguments: [
        ("@RewindCodable\nclass Model: Codable {}", "@RewindCodable applies to a struct or an enum", 1, 1),
        (
            "@RewindCodable\nstruct S: Codable {\n    var a = 0\n    enum CodingKeys: String, CodingKey {\n        case a = \"b\"\n    }\n}",
            "@RewindCodable follows synthesized Codable, and this type declares its own CodingKeys", 4, 5
        ),
        (
            "@RewindCodable\nstruct S: Codable {\n    var a = 0\n    func encode(to encoder: any Encoder) throws {}\n}",
            "@RewindCodable follows synthesized Codable, and this type declares its own encode(to:) or init(from:)", 4, 5
        ),
        (
            "@RewindCodable\nstruct S: Codable {\n    @Clamped var a = 0\n}",
            "@RewindCodable cannot follow how a property wrapper encodes; remove the attribute or the macro", 3, 5
        ),
        ("@RewindCodable\nstruct S: Codable {\n    lazy var a = 0\n}", "@RewindCodable does not support lazy properties", 3, 5),
        ("@RewindCodable\nstruct S: Codable {\n    var (a, b) = (0, 1)\n}", "@RewindCodable needs one name per stored property", 3, 9),
        (
            "@RewindCodable\nenum E: Tagged, Codable {\n    case a\n}",
            "@RewindCodable cannot tell whether the first inherited type is a raw type; list Codable first, or the raw type by its name (String, Int, ...)",
            2, 9
        ),
        (
            "@RewindCodable\nenum E: Codable {\n    case a(_ x: Int)\n}",
            "@RewindCodable does not support internal names on associated values; write `label:` or leave the value unlabeled", 3, 12
        ),
    ])
    func aShapeItCannotFollowIsRefusedWhereItIs(source: String, message: String, line: Int, column: Int) {
        // The declaration stays as written, without the attribute, and gains nothing.
        let written = source.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        expand(source, written, diagnostics: [DiagnosticSpec(message: message, line: line, column: column)])
    }
}
