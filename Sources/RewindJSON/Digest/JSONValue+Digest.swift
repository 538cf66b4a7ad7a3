extension JSONValue {
    /// The structural digest by the newest rule (``StateDigest/Rule/newest``), the one a
    /// recorder stores now: equal values have equal digests everywhere, always.
    public var digest: StateDigest {
        digest(by: .newest)
    }

    /// The structural digest by `rule`: equal values have equal digests everywhere, always.
    public func digest(by rule: StateDigest.Rule) -> StateDigest {
        StateDigest(rawValue: StructuralHasher.digest(of: self, rule: rule, arrays: nil))
    }
}
