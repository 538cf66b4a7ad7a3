/// What one upload may hold; a collector refuses more before storing anything of it.
///
/// The defaults fit a recorder's blocks with room to spare: a block of 256 login steps
/// deflates to about 3 KB, and the largest keyframe blocks of a 10,000-photo state inflate
/// to about 4 MB.
public struct UploadLimits: Sendable, Equatable {
    /// Bytes of a body, counted as it is read.
    public var bodyBytes: Int
    /// Blocks in one body.
    public var blocks: Int
    /// Bytes a block may inflate to (its `size`).
    public var blockSize: Int
    /// Bytes of a name, a flow, or any metadata value; of the initial state, `headerBytes`.
    public var textBytes: Int
    /// Bytes of the header (the initial state included).
    public var headerBytes: Int

    public init(bodyBytes: Int = 8 << 20, blocks: Int = 1_024, blockSize: Int = 16 << 20, textBytes: Int = 1_024, headerBytes: Int = 8 << 20) {
        self.bodyBytes = bodyBytes
        self.blocks = blocks
        self.blockSize = blockSize
        self.textBytes = textBytes
        self.headerBytes = headerBytes
    }

    /// The collector's limits unless its command line says otherwise.
    public static let `default` = UploadLimits()
}
