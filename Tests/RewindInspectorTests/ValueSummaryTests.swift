import RewindInspector
import RewindJSON
import RewindRendering
import Testing

@Suite struct ValueSummaryTests {
    @Test func aLongValueIsCountedInTheRightNumber() throws {
        let long = String(repeating: "x", count: 60)
        #expect(ValueSummary.describe(try JSONValue(parsing: #"{"message":"\#(long)"}"#)) == "{1 field}")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"{"a":"\#(long)","b":1}"#)) == "{2 fields}")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"["\#(long)"]"#)) == "[1 item]")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"["\#(long)",1]"#)) == "[2 items]")
    }
}
