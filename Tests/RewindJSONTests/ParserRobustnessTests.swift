import RewindJSON
import Testing

/// Deterministic fuzzing: whatever the bytes, the parser returns a value or an error, and any
/// value it returns survives a trip through its canonical text.
@Suite struct ParserRobustnessTests {
    static let corpus = [
        #"{"photos":[{"id":1,"title":"a\u00e9\ud83c\udf9e","tags":["x"]},{"id":2,"n":-1.5e-3}],"ok":true,"none":null}"#,
        #"[0,-0,1e5,1E-5,0.25,9223372036854775807,-9223372036854775808,18446744073709551616]"#,
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"é€🎞\", {}, [], [[[]]]]",
    ]

    func expectRoundTrip(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONValue(parsing: bytes) else { return true }
        return (try? JSONValue(parsing: value.canonicalBytes)) == value
    }

    @Test func everyPrefixOfValidDocumentsIsHandled() {
        for document in Self.corpus {
            let bytes = Array(document.utf8)
            for end in 0...bytes.count {
                #expect(expectRoundTrip(Array(bytes[..<end])))
            }
        }
    }

    @Test func mutatedDocumentsAreHandled() {
        var generator = SplitMix64(seed: 0xF0225)
        let interesting: [UInt8] = Array(#"{}[]",:\-+.0123456789eEtrufalsn "#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xED, 0xF4, 0xFF]
        var failures = 0
        for round in 0..<20_000 {
            var bytes = Array(Self.corpus[round % Self.corpus.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                let byte = interesting.randomElement(using: &generator) ?? 0
                switch Int.random(in: 0...3, using: &generator) {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                case 2: bytes.remove(at: position)
                default: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                }
                if bytes.isEmpty { bytes = [byte] }
            }
            if !expectRoundTrip(bytes) { failures += 1 }
        }
        #expect(failures == 0)
    }

    @Test func randomBytesAreHandled() {
        var generator = SplitMix64(seed: 12_345)
        var failures = 0
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !expectRoundTrip(bytes) { failures += 1 }
        }
        #expect(failures == 0)
    }

    @Test func deeplyNestedGarbageIsHandled() {
        let shapes = [String(repeating: "[{\"a\":", count: 2_000), String(repeating: "{\"a\":[", count: 300) + "1" + String(repeating: "]", count: 300)]
        for shape in shapes {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: shape) }
        }
    }
}
