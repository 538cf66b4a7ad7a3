/// What a redacted secret is recorded as: `{"$redacted": N}`, N the secret's length.
///
/// RewindCore's `Secret` writes it; RewindRendering shows it as `<redacted N>` and needs
/// nothing else of RewindCore, so the key lives here, under both.
public enum RedactedPlaceholder {
    /// The placeholder object's one key. (APIs that take a `StaticString` spell it as a
    /// literal.)
    public static let key = "$redacted"
}
