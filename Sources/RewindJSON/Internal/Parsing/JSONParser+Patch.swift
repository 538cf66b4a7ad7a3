extension JSONParser {
    /// Reads a patch straight from the compact form `JSONPatch.json` writes, without building
    /// the JSON arrays of its operations and paths, or nil where the text is not exactly a
    /// patch: the caller then reads it the general way, which says what is wrong.
    ///
    /// Values are read as `JSONValue(parsing:)` reads them, at the depth they have there.
    mutating func parsePatch() -> JSONPatch? {
        skipWhitespace()
        guard skip("[") else { return nil }
        var operations: [JSONPatch.Operation] = []
        if skip("]") { return finished(JSONPatch(operations)) }
        while true {
            guard let operation = parseOperation() else { return nil }
            operations.append(operation)
            if skip("]") { return finished(JSONPatch(operations)) }
            guard skip(",") else { return nil }
        }
    }

    /// `patch` if only whitespace follows it.
    private mutating func finished(_ patch: JSONPatch) -> JSONPatch? {
        skipWhitespace()
        return position == bytes.count ? patch : nil
    }

    private mutating func parseOperation() -> JSONPatch.Operation? {
        guard skip("["), peek() == UInt8(ascii: "\""), position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: "\"") else { return nil }
        let tag = bytes[position + 1]
        position += 3
        guard skip(","), let path = parsePath() else { return nil }
        switch tag {
        case UInt8(ascii: "s"):
            guard skip(","), let value = try? parseValue(depth: 2), skip("]") else { return nil }
            return .set(path, value)
        case UInt8(ascii: "r"):
            guard skip("]") else { return nil }
            return .remove(path)
        case UInt8(ascii: "p"):
            guard skip(","), let start = parseIndex(), skip(","), let end = parseIndex(), start <= end, skip(","),
                peek() == UInt8(ascii: "["), case .array(let values)? = try? parseValue(depth: 2), skip("]")
            else { return nil }
            return .splice(path, range: start..<end, with: values)
        default:
            return nil
        }
    }

    /// An array of keys and non-negative indices.
    private mutating func parsePath() -> JSONPath? {
        guard skip("[") else { return nil }
        var components: [JSONPath.Component] = []
        if skip("]") { return JSONPath(components) }
        while true {
            if peek() == UInt8(ascii: "\"") {
                guard let key = try? parseString() else { return nil }
                components.append(.key(key))
            } else {
                guard let index = parseIndex() else { return nil }
                components.append(.index(index))
            }
            skipWhitespace()
            if skip("]") { return JSONPath(components) }
            guard skip(",") else { return nil }
            skipWhitespace()
        }
    }

    private mutating func parseIndex() -> Int? {
        skipWhitespace()
        guard let byte = peek(), Self.isDigit(byte), case .int(let index)? = try? parseNumber() else { return nil }
        return index
    }

    /// Steps over `byte` and the whitespace around it, if `byte` is next.
    private mutating func skip(_ byte: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: byte) else { return false }
        position += 1
        skipWhitespace()
        return true
    }
}
