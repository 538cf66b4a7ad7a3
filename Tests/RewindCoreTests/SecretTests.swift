import Foundation
import RewindCore
import Testing

@Suite struct SecretTests {
    @Test func encodesOnlyItsLength() throws {
        let data = try JSONEncoder().encode(["password": Secret("hunter22")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"password":{"$redacted":8}}"#)
    }

    @Test func decodesAPlaceholderOfTheSameLength() throws {
        let secret = try JSONDecoder().decode(Secret.self, from: Data(#"{"$redacted":8}"#.utf8))
        #expect(secret.count == 8)
        #expect(secret.isRedacted)
        #expect(secret == Secret(redactedLength: 8))
        #expect(secret != Secret("hunter22"))
    }

    @Test func refusesANegativeLength() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Secret.self, from: Data(#"{"$redacted":-1}"#.utf8))
        }
    }

    @Test func neverPrintsItsValue() {
        let secret = Secret("hunter22")
        #expect("\(secret)" == "<redacted 8>")
        #expect(String(reflecting: secret) == "<redacted 8>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter22"))
    }
}
