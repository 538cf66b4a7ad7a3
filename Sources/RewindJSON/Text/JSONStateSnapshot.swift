import Foundation

/// A value's canonical JSON text and its tape (``JSONStateWriter``), kept: what a recorder
/// hands from the thread that writes a state to the one that stores it, and diffs the next
/// state against.
public struct JSONStateSnapshot: Sendable {
    /// The canonical text.
    public let text: [UInt8]
    /// A node per value, each before those inside it.
    public let nodes: [JSONStateNode]

    public init(text: [UInt8], nodes: [JSONStateNode]) {
        self.text = text
        self.nodes = nodes
    }

    /// The value's digest.
    public var digest: StateDigest {
        StateDigest(rawValue: nodes.first?.digest ?? 0)
    }

    /// The value, parsed from its text: for what needs a tree (a sink that takes trees, a
    /// redaction scan).
    public func value() throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    /// Whether the text holds `bytes` anywhere: a quick test before a parse that only a few
    /// states need, such as looking for secrets' placeholders.
    public func contains(_ bytes: StaticString) -> Bool {
        text.withUnsafeBufferPointer { Self.contains(bytes, in: $0) }
    }

    /// Whether `text` holds `bytes` anywhere: `memchr` finds each place of the needle's first
    /// byte that is not a quote (a search from each quote of a JSON text cost twice as much on
    /// a login state), `memcmp` checks the rest.
    public static func contains(_ bytes: StaticString, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = bytes.utf8CodeUnitCount
        guard let base = text.baseAddress, length > 0, text.count >= length else { return false }
        let needle = bytes.utf8Start
        var anchor = 0
        while anchor < length - 1, needle[anchor] == UInt8(ascii: "\"") { anchor += 1 }
        // Where the needle may start: from 0 through `last`.
        let last = text.count - length
        var start = 0
        while start <= last, let found = memchr(base + start + anchor, Int32(needle[anchor]), last - start + 1) {
            let candidate = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - anchor
            if memcmp(candidate, needle, length) == 0 { return true }
            start = base.distance(to: candidate) + 1
        }
        return false
    }
}

extension JSONCanonicalWriter {
    /// Writes the patch that turns `old` into `new`, as text: the same changes as
    /// ``JSONPatch/between(_:_:)`` finds, found on the tapes.
    ///
    /// Equal values are skipped on their digests and text; objects are paired by key, a key
    /// gone removed and one added set, members in both compared in turn; other values that
    /// differ are set whole. Arrays, and values written whole from trees, that differ are
    /// diffed as trees, by ``JSONPatch/between(_:_:)``, so that their patches (splices,
    /// elements paired by id) are what it makes.
    public mutating func patch(from old: JSONStateSnapshot, to new: JSONStateSnapshot) throws {
        byte(UInt8(ascii: "["))
        try old.text.withUnsafeBufferPointer { oldText in
            try new.text.withUnsafeBufferPointer { newText in
                try old.nodes.withUnsafeBufferPointer { oldNodes in
                    try new.nodes.withUnsafeBufferPointer { newNodes in
                        guard !oldNodes.isEmpty && !newNodes.isEmpty else { return }
                        var diff = SnapshotDiff(oldText: oldText, newText: newText, oldNodes: oldNodes, newNodes: newNodes)
                        try diff.compare(0, 0, at: nil, into: &self)
                    }
                }
            }
        }
        byte(UInt8(ascii: "]"))
    }
}

/// The walk of ``JSONCanonicalWriter/patch(from:to:)`` over two tapes, valid while their
/// buffers are.
///
/// It reads the tapes through pointers and keeps the path on the call stack: holding the two
/// snapshots and an array of the path retained, released and allocated at every patch, a
/// twentieth of writing a login step (callgrind).
private struct SnapshotDiff {
    let oldText: UnsafeBufferPointer<UInt8>
    let newText: UnsafeBufferPointer<UInt8>
    let oldNodes: UnsafeBufferPointer<JSONStateNode>
    let newNodes: UnsafeBufferPointer<JSONStateNode>
    var operations = 0

    /// One component of the path to the values compared, and the components before it: a
    /// key as its text (in the new tape, or the old one for a removed member's).
    struct PathLink {
        var key: Range<Int>
        var keyFromOld = false
        var parent: UnsafePointer<PathLink>?
    }

    init(
        oldText: UnsafeBufferPointer<UInt8>, newText: UnsafeBufferPointer<UInt8>, oldNodes: UnsafeBufferPointer<JSONStateNode>,
        newNodes: UnsafeBufferPointer<JSONStateNode>
    ) {
        self.oldText = oldText
        self.newText = newText
        self.oldNodes = oldNodes
        self.newNodes = newNodes
    }

    mutating func compare(_ o: Int, _ n: Int, at path: UnsafePointer<PathLink>?, into writer: inout JSONCanonicalWriter) throws {
        let a = oldNodes[o]
        let b = newNodes[n]
        if a.digest == b.digest, a.kind == b.kind, sameText(a.range, b.range) { return }
        switch (a.kind, b.kind) {
        case (.object, .object):
            try compareMembers(o, n, at: path, into: &writer)
        case (.array, .array), (.tree, _), (_, .tree):
            try compareTrees(a, b, at: path, into: &writer)
        default:
            begin("s", at: path, &writer)
            writer.byte(UInt8(ascii: ","))
            writer.bytes(UnsafeBufferPointer(rebasing: newText[b.range]))
            writer.byte(UInt8(ascii: "]"))
        }
    }

    /// Pairs the members of two objects by key, both in the order of their keys' bytes.
    private mutating func compareMembers(_ o: Int, _ n: Int, at path: UnsafePointer<PathLink>?, into writer: inout JSONCanonicalWriter) throws {
        var i = o + 1
        var j = n + 1
        let oldEnd = oldNodes[o].after
        let newEnd = newNodes[n].after
        while i < oldEnd || j < newEnd {
            let order = i == oldEnd ? 1 : j == newEnd ? -1 : keyOrder(oldNodes[i].key, newNodes[j].key)
            if order < 0 {
                // A key gone: its text is in the old snapshot.
                var link = PathLink(key: oldNodes[i].key, keyFromOld: true, parent: path)
                withUnsafePointer(to: &link) { begin("r", at: $0, &writer) }
                writer.byte(UInt8(ascii: "]"))
                i = oldNodes[i].after
            } else if order > 0 {
                var link = PathLink(key: newNodes[j].key, parent: path)
                withUnsafePointer(to: &link) { begin("s", at: $0, &writer) }
                writer.byte(UInt8(ascii: ","))
                writer.bytes(UnsafeBufferPointer(rebasing: newText[newNodes[j].range]))
                writer.byte(UInt8(ascii: "]"))
                j = newNodes[j].after
            } else {
                var link = PathLink(key: newNodes[j].key, parent: path)
                try withUnsafePointer(to: &link) { try compare(i, j, at: $0, into: &writer) }
                i = oldNodes[i].after
                j = newNodes[j].after
            }
        }
    }

    /// Diffs two values as trees, the path to them put before each operation's own.
    private mutating func compareTrees(
        _ a: JSONStateNode, _ b: JSONStateNode, at path: UnsafePointer<PathLink>?, into writer: inout JSONCanonicalWriter
    ) throws {
        let before = try JSONValue(parsing: UnsafeBufferPointer(rebasing: oldText[a.range]))
        let after = try JSONValue(parsing: UnsafeBufferPointer(rebasing: newText[b.range]))
        for operation in JSONPatch.between(before, after).operations {
            if operations > 0 { writer.byte(UInt8(ascii: ",")) }
            operations += 1
            writer.operation(operation) { writer in
                writePath(path, &writer)
                return path != nil
            }
        }
    }

    /// `["tag",[path…]` with the comma before it if an operation came before.
    private mutating func begin(_ tag: StaticString, at path: UnsafePointer<PathLink>?, _ writer: inout JSONCanonicalWriter) {
        if operations > 0 { writer.byte(UInt8(ascii: ",")) }
        operations += 1
        writer.text("[\"")
        writer.text(tag)
        writer.text("\",[")
        writePath(path, &writer)
        writer.byte(UInt8(ascii: "]"))
    }

    /// The components of `path`, from the root, comma-separated.
    private func writePath(_ path: UnsafePointer<PathLink>?, _ writer: inout JSONCanonicalWriter) {
        guard let path else { return }
        if path.pointee.parent != nil {
            writePath(path.pointee.parent, &writer)
            writer.byte(UInt8(ascii: ","))
        }
        writer.byte(UInt8(ascii: "\""))
        writer.bytes(UnsafeBufferPointer(rebasing: (path.pointee.keyFromOld ? oldText : newText)[path.pointee.key]))
        writer.byte(UInt8(ascii: "\""))
    }

    private func sameText(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return a.isEmpty || memcmp(oldText.baseAddress! + a.lowerBound, newText.baseAddress! + b.lowerBound, a.count) == 0
    }

    /// How the old key `a` sorts against the new key `b`, by their bytes.
    private func keyOrder(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        UTF8Bytes.compare(UnsafeBufferPointer(rebasing: oldText[a]), UnsafeBufferPointer(rebasing: newText[b]))
    }
}
