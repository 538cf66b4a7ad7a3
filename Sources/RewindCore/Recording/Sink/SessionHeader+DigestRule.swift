import RewindJSON

extension SessionHeader {
    /// How the session's digests take its arrays: by `StateDigest.Rule.summed` when it
    /// records what each step asked for, as every session a recorder starts does (log format
    /// 6); by `StateDigest.Rule.chained` when it does not (log format 4: a session of an older
    /// log that `replay --update`, `minimize` or `import` writes again).
    public var digestRule: StateDigest.Rule {
        Self.digestRule(recordingEffects: recordsEffects)
    }

    /// The rule of the digests of a session that records its effects or not.
    public static func digestRule(recordingEffects: Bool) -> StateDigest.Rule {
        recordingEffects ? .newest : .chained
    }
}
