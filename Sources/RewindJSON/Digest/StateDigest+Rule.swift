extension StateDigest {
    /// How an array's digest is taken from its elements' digests; everything else is hashed
    /// the same way under both rules.
    ///
    /// A digest is stored with each recorded step and checked by every reader, so a rule
    /// belongs to the log format a session was written in.
    public enum Rule: Sendable, Hashable {
        /// FNV-1a over the array's kind, its length and each element's digest, in order: the
        /// rule of log formats 1 to 5, which a session of format 4 written again keeps.
        ///
        /// Its steps wait for one another, and a change to one element is hashed on to the
        /// array's end: half of a 10,000-element array a step on average, 195,000 instructions
        /// (callgrind), the largest cost of recording or replaying one change to it.
        case chained
        /// FNV-1a over the array's kind, its length and the sum (modulo 2⁶⁴) of one term an
        /// element, ``term(of:at:)``: its digest mixed with its index.
        ///
        /// The terms do not depend on one another, so a change to one element changes the sum
        /// by its two terms, whatever the array's length, and a whole array is summed without
        /// a chain of waits.
        case summed

        /// The rule of the sessions a recorder writes now, ``summed``, and the one taken where
        /// no rule is named.
        public static var newest: Self { .summed }

        /// The term the element at `index` whose digest is `digest` adds to an array's sum
        /// under ``summed``: SplitMix64's finalizer (a bijection) of the digest offset by the
        /// index times the golden ratio, so that equal elements at different places add
        /// different terms and elements that swap places change the sum.
        @inlinable
        public static func term(of digest: UInt64, at index: Int) -> UInt64 {
            var mixed = digest &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
