import RewindJSON

/// A secret builds and reads its placeholder itself, so that a state marked `@RewindCodable`
/// encodes its secrets without falling back to `Codable`: the same `{"$redacted": count}`.
extension Secret: JSONTreeCodable {
    public func encodeTree(_ encoder: JSONTreeEncoder) throws -> JSONValue {
        var object = encoder.object(capacity: 1)
        try object.encode(count, forKey: Self.placeholderKey)
        return object.finish()
    }

    public func writeJSON(to writer: inout JSONStateWriter) throws {
        writer.beginObject()
        try writer.member("$redacted", count)
        writer.endObject()
    }

    public init(tree: JSONValue, _ decoder: JSONTreeDecoder) throws {
        let length: Int = try decoder.object(tree, of: Secret.self).decode(forKey: Self.placeholderKey)
        // Out of range, `init(from:)` throws the error that says so.
        guard (0...Self.maximumRedactedLength).contains(length) else { throw JSONTreeMismatch(Secret.self, "length out of range") }
        // Most decoders have no `userInfo`: looking the key up hashes its name.
        self.init(placeholderOf: length, reads: decoder.userInfo.isEmpty ? nil : decoder.userInfo[.secretReads] as? SecretReads)
    }
}
