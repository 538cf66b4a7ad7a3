/// How a stored row compared with the checksum written with it.
public enum RowCheck: Sendable, Equatable {
    /// It matches.
    case verified
    /// The row was written before logs had checksums (format version 1).
    case unchecked
    /// It does not: the row was changed after it was written.
    case mismatch
}
