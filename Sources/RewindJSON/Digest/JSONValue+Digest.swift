extension JSONValue {
    /// The structural digest: equal values have equal digests everywhere, always.
    public var digest: StateDigest {
        StateDigest(rawValue: StructuralHasher.digest(of: self, arrays: nil))
    }
}
