extension JSONValue {
    /// Parses exactly one JSON document, strictly per RFC 8259.
    ///
    /// Surrounding whitespace is allowed; comments, trailing commas, `NaN`, leading zeros,
    /// invalid escapes, unpaired surrogates, invalid UTF-8 and duplicate object keys are not.
    /// Numbers without fraction or exponent that fit `Int` become `.int`, all others `.double`.
    /// Arrays and objects may nest 512 deep. Any input, however malformed, gives a value or a
    /// `JSONParseError`; none crashes.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result =
            bytes.withContiguousStorageIfAvailable(JSONParser.parse)
            ?? Array(bytes).withUnsafeBufferPointer(JSONParser.parse)
        self = try result.get()
    }

    /// Parses exactly one JSON document from the UTF-8 of `string`; see `init(parsing:)`.
    public init(parsing string: String) throws(JSONParseError) {
        var string = string
        self = try string.withUTF8(JSONParser.parse).get()
    }
}
