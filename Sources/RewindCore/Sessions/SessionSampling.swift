import Foundation

/// Which sessions a recorder records when it records only a fraction of them
/// (``RecorderConfiguration/sampling``): decided once per session, from its id alone, so that
/// every process and every recorder of one session decide alike, and a fraction of 0.1 records
/// one session in ten.
public enum SessionSampling {
    /// Whether the session `id` is among the `fraction` (0 to 1) of sessions recorded.
    ///
    /// Reads the id's first 48 bits, random in every UUID `UUID()` makes (version 4), as a
    /// number in [0, 1).
    public static func includes(_ id: UUID, fraction: Double) -> Bool {
        guard fraction < 1 else { return true }
        guard fraction > 0 else { return false }
        let bytes = id.uuid
        let bits = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bits) / Double(UInt64(1) << 48) < fraction
    }
}
