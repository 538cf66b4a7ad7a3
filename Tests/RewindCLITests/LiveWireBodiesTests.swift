import Foundation
import RewindJSON
import RewindUpload
import Testing

/// The live inspector's bodies, written by the server and read by the app's channel and
/// `LiveInspectorClient` from one type each: the exact bytes, and what a reader makes of an
/// answer that lacks a part.
@Suite struct LiveWireBodiesTests {
    @Test func aLongPollsAnswerIsWrittenAndReadBackAsOne() throws {
        let answer = WireLiveCommands(
            epoch: "e1", commands: [.init(number: 1, command: .object(JSONObject([("travel", .int(3))]))), .init(number: 2, command: .string("resume"))])
        #expect(
            String(decoding: answer.json.canonicalBytes, as: UTF8.self)
                == #"{"commands":[{"command":{"travel":3},"number":1},{"command":"resume","number":2}],"epoch":"e1"}"#)
        #expect(WireLiveCommands(json: answer.json) == answer)
        // An entry without its number is left out; an answer without a list is none.
        let partial = try JSONValue(parsing: Array(#"{"commands":[{"command":"x"},{"number":4,"command":"y"}]}"#.utf8))
        #expect(WireLiveCommands(json: partial) == WireLiveCommands(epoch: "", commands: [.init(number: 4, command: .string("y"))]))
        #expect(WireLiveCommands(json: try JSONValue(parsing: Array(#"{"commands":"all"}"#.utf8))) == nil)
    }

    @Test func aQueuedCommandsNumberIsWrittenAndReadBackAsOne() throws {
        #expect(String(decoding: WireLiveQueued(number: 7).json.canonicalBytes, as: UTF8.self) == #"{"number":7}"#)
        #expect(WireLiveQueued(json: WireLiveQueued(number: 7).json) == WireLiveQueued(number: 7))
        #expect(WireLiveQueued(json: try JSONValue(parsing: Array(#"{"number":"7"}"#.utf8))) == nil)
    }

    @Test func aListingOfSessionsIsWrittenAndReadBackAsOne() throws {
        let id = try #require(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        let sessions = [
            WireLiveSession(
                id: id, name: "todo", flow: "live", app: "todo", steps: 12, lastStep: 12, ended: false, outcome: .object(JSONObject([("number", .int(1))]))),
            WireLiveSession(id: nil, name: nil, flow: "live", app: nil, steps: 0, lastStep: 0, ended: true, outcome: nil),
        ]
        let listing = WireLiveSession.listing(of: sessions)
        #expect(
            String(decoding: listing.canonicalBytes, as: UTF8.self)
                == #"{"sessions":[{"app":"todo","ended":false,"flow":"live","id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","last_step":12,"name":"todo","outcome":{"number":1},"steps":12},{"app":null,"ended":true,"flow":"live","id":null,"last_step":0,"name":null,"outcome":null,"steps":0}]}"#
        )
        #expect(WireLiveSession.listing(listing) == sessions)
        #expect(WireLiveSession.listing(.object(JSONObject([("sessions", .null)]))) == nil)
    }
}
