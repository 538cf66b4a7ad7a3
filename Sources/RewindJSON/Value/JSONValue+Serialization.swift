extension JSONValue {
    /// The canonical UTF-8 text of the value.
    ///
    /// No whitespace; object keys in UTF-8 byte order; strings escape only `"`, `\` and
    /// control characters (`\b \f \n \r \t` by name, the rest as `\u00xx`), leaving `/` and
    /// non-ASCII as they are; integers in decimal; doubles in Swift's shortest round-trip form
    /// (`0.1`, `3.0`, `1e-07`, `1.5e+20`). JSON has no spelling for infinities or NaN, which
    /// `JSONValueEncoder` refuses to produce; should one be built by hand it is written `null`.
    public var canonicalBytes: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        canonicalBytes(into: &buffer)
        return buffer
    }

    /// The canonical text of the value; see `canonicalBytes`.
    public var canonicalString: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// Appends the canonical UTF-8 text of the value to `buffer`; see `canonicalBytes`.
    public func canonicalBytes(into buffer: inout [UInt8]) {
        var writer = JSONCanonicalWriter()
        writer.value(self)
        writer.append(to: &buffer)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The canonical text, which also makes test failures readable.
    public var description: String { canonicalString }
}
