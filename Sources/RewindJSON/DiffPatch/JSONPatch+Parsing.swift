extension JSONPatch {
    /// Reads a patch from the UTF-8 of its JSON form (``json``), as
    /// `JSONPatch(json: JSONValue(parsing: bytes))` does, with the same result and errors.
    ///
    /// Every reader of a log reads a patch per step: read straight into operations, the text
    /// costs no intermediate arrays for the operations and their paths.
    public init(parsing bytes: some Collection<UInt8>) throws {
        let patch =
            bytes.withContiguousStorageIfAvailable(Self.directly)
            ?? Array(bytes).withUnsafeBufferPointer(Self.directly)
        // Anything the direct reading does not take is read the general way, which also
        // accepts what it may have been too strict for, and says what is wrong otherwise.
        self = try patch ?? JSONPatch(json: JSONValue(parsing: bytes))
    }

    /// Reads a patch from the UTF-8 of `text`; see `init(parsing:)`.
    public init(parsing text: String) throws {
        var text = text
        self = try text.withUTF8 { bytes in try JSONPatch(parsing: bytes) }
    }

    private static func directly(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONPatch? {
        var parser = JSONParser(bytes: bytes)
        return parser.parsePatch()
    }
}
