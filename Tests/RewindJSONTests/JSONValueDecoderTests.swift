import Foundation
import RewindJSON
import Testing

/// The path and message of a decoding error, which is not Equatable itself.
func summary(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
    let (kind, context): (String, DecodingError.Context)
    switch error {
    case .typeMismatch(let type, let c): (kind, context) = ("typeMismatch(\(type))", c)
    case .valueNotFound(let type, let c): (kind, context) = ("valueNotFound(\(type))", c)
    case .keyNotFound(let key, let c): (kind, context) = ("keyNotFound(\(key.stringValue))", c)
    case .dataCorrupted(let c): (kind, context) = ("dataCorrupted", c)
    @unknown default: return "unknown"
    }
    return "\(kind) at \(context.codingPath.map(\.stringValue).joined(separator: "/")): \(context.debugDescription)"
}

func decodingFailure<T: Decodable>(_ type: T.Type, from value: JSONValue) -> String {
    do {
        _ = try JSONValueDecoder().decode(type, from: value)
        return "no error"
    } catch {
        return summary(of: error)
    }
}

@Suite struct JSONValueDecoderTests {
    @Test func roundTripsTheRichFixture() throws {
        let tree = try JSONValueEncoder().encode(Album.sample)
        #expect(try JSONValueDecoder().decode(Album.self, from: tree) == Album.sample)
    }

    @Test func decodesWhatFoundationWrote() throws {
        var album = Album.sample
        album.created = Date(timeIntervalSinceReferenceDate: 0)
        let tree = try foundationTree(album)
        #expect(try JSONValueDecoder().decode(Album.self, from: tree) == album)
    }

    @Test func decodesHandWrittenContainersAndTopLevelValues() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Manual.self, from: try JSONValueEncoder().encode(Manual())) == Manual())
        #expect(try decoder.decode(Int.self, from: 5) == 5)
        #expect(try decoder.decode(Int?.self, from: nil) == nil)
        #expect(try decoder.decode(Date.self, from: 2) == Date(timeIntervalSinceReferenceDate: 2))
        #expect(try decoder.decode(Data.self, from: "aGk=") == Data("hi".utf8))
        #expect(try decoder.decode(URL.self, from: "https://a.b/c") == URL(string: "https://a.b/c"))
        #expect(try decoder.decode(Decimal.self, from: 0.1) == Decimal(string: "0.1"))
        #expect(try decoder.decode(Decimal.self, from: 7) == Decimal(7))
        #expect(try decoder.decode([Int: String].self, from: ["1": "a", "20": "b"]) == [1: "a", 20: "b"])
    }

    @Test func convertsNumbersExactlyOrNotAtAll() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode([Int8].self, from: [-128, 127, 2.0]) == [-128, 127, 2])
        #expect(try decoder.decode([UInt64].self, from: [.int(.max), 1e19]) == [UInt64(Int.max), 10_000_000_000_000_000_000])
        #expect(try decoder.decode([Double].self, from: [1, 2.5]) == [1.0, 2.5])
        #expect(try decoder.decode([Float].self, from: [1, 0.1]) == [1.0, 0.1])
        #expect(decodingFailure([UInt8].self, from: [1, 300]) == "dataCorrupted at Index 1: Parsed JSON number <300> does not fit in UInt8.")
        #expect(decodingFailure([Int].self, from: [1.5]) == "dataCorrupted at Index 0: Parsed JSON number <1.5> does not fit in Int.")
        #expect(decodingFailure(UInt.self, from: -1) == "dataCorrupted at : Parsed JSON number <-1> does not fit in UInt.")
        #expect(decodingFailure(Float.self, from: 1e300) == "dataCorrupted at : Parsed JSON number <1e+300> does not fit in Float.")
    }

    @Test func reportsErrorsWithTheirCodingPath() {
        let photo: JSONValue = ["id": 1, "title": "t", "url": "u", "taken": 0, "tags": [], "status": "draft"]
        #expect(
            decodingFailure([String: [Album.Photo]].self, from: ["photos": [photo, ["id": "two"]]])
                == "typeMismatch(Int) at photos/Index 1/id: Expected to decode Int but found a string instead.")
        #expect(
            decodingFailure([String: [Album.Photo]].self, from: ["photos": [photo, ["id": 2]]])
                == #"keyNotFound(title) at photos/Index 1: No value associated with key CodingKeys(stringValue: "title", intValue: nil) ("title")."#)
        #expect(
            decodingFailure([String].self, from: ["a", nil])
                == "valueNotFound(String) at Index 1: Cannot get value of type String -- found null value instead")
        #expect(
            decodingFailure(Album.Photo.self, from: [1])
                == "typeMismatch(Dictionary<String, Any>) at : Expected to decode Dictionary<String, Any> but found an array instead.")
        #expect(
            decodingFailure([[Int]].self, from: [nil])
                == "valueNotFound(Array<Any>) at Index 0: Cannot get unkeyed decoding container -- found null value instead")
        #expect(decodingFailure(Data.self, from: "%%%") == "dataCorrupted at : Encountered Data is not valid Base64.")
        #expect(
            decodingFailure(Album.Status.self, from: "gone")
                == "dataCorrupted at : Cannot initialize Status from invalid String value gone")
    }

    @Test func reportsTheEndOfAnUnkeyedContainer() {
        #expect(
            decodingFailure(Manual.self, from: ["header": "h", "rows": [[1]], "parent": 1, "super": []])
                == "valueNotFound(Array<Any>) at rows/Index 1: Unkeyed container is at end.")
    }

    @Test func showsValuesTheSameCodingPathsAsFoundation() throws {
        let tree = try JSONValueEncoder().encode(ProbeHolder())
        let ours = PathRecorder()
        var decoder = JSONValueDecoder()
        decoder.userInfo[PathRecorder.key] = ours
        #expect(try decoder.decode(ProbeHolder.self, from: tree) == ProbeHolder())
        let theirs = PathRecorder()
        let foundation = JSONDecoder()
        foundation.userInfo[PathRecorder.key] = theirs
        _ = try foundation.decode(ProbeHolder.self, from: JSONEncoder().encode(ProbeHolder()))
        #expect(ours.recorded == theirs.recorded)
        #expect(ours.recorded.last == "choices/Index 1#1/two/second/Index 0#0")
    }
}
