import RewindJSON

extension StateDigest.Rule {
    /// The rule of the digests of a session written in log format `version`: summed from
    /// format 6, chained before.
    package init(logFormat version: Int) {
        self = version >= LogSchema.summedDigestsFormatVersion ? .summed : .chained
    }
}
