extension JSONParser {
    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        let stackStart = keyStack.count
        let valueStart = valueStack.count
        // Canonical input arrives sorted, which is checked as keys come and spares the sort.
        var isSorted = true
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error(
                    peek().map { "unexpected \(Self.describe($0)), expected a string key" }
                        ?? "unexpected end of input, expected a string key")
            }
            let keyOffset = position
            let key = try parseString()
            if isSorted, let previous = keyStack.last(above: stackStart) {
                let order = UTF8Bytes.compare(previous.key, key)
                if order == 0 { throw error("duplicate key \(Self.quoted(key))", at: keyOffset) }
                isSorted = order < 0
            }
            keyStack.append((key, keyOffset))
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
            position += 1
            skipWhitespace()
            valueStack.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { throw error("trailing comma in object") }
            case UInt8(ascii: "}"):
                position += 1
                return .object(try finishObject(keysFrom: stackStart, valuesFrom: valueStart, isSorted: isSorted))
            case let byte?:
                throw error("unexpected \(Self.describe(byte)), expected ',' or '}' after object member")
            case nil:
                throw error("unexpected end of input, expected ',' or '}' after object member")
            }
        }
    }

    /// Builds the object from the top of the stacks, sorting and rejecting duplicates if needed.
    mutating func finishObject(keysFrom keyStart: Int, valuesFrom valueStart: Int, isSorted: Bool) throws(JSONParseError) -> JSONObject {
        if isSorted {
            return JSONObject(sortedKeys: keyStack.removeAll(from: keyStart) { $0.key }, values: valueStack.removeAll(from: valueStart))
        }
        let keys = keyStack.removeAll(from: keyStart)
        let values = valueStack.removeAll(from: valueStart)
        let order = keys.indices.sorted { i, j in
            UTF8Bytes.compare(keys[i].key, keys[j].key) < 0
        }
        var sortedKeys: [String] = []
        var sortedValues: [JSONValue] = []
        sortedKeys.reserveCapacity(keys.count)
        sortedValues.reserveCapacity(keys.count)
        for (rank, i) in order.enumerated() {
            let member = keys[i]
            if rank > 0, case let previous = keys[order[rank - 1]], UTF8Bytes.equal(previous.key, member.key) {
                // Report the second occurrence in the text, where a reader would look.
                throw error("duplicate key \(Self.quoted(member.key))", at: max(previous.offset, member.offset))
            }
            sortedKeys.append(member.key)
            sortedValues.append(values[i])
        }
        return JSONObject(sortedKeys: sortedKeys, values: sortedValues)
    }

    /// `key` as a JSON string literal, so that odd keys stay readable in one-line messages.
    static func quoted(_ key: String) -> String {
        JSONValue.string(key).canonicalString
    }
}
