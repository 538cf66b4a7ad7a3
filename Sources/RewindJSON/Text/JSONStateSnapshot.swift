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
        var diff = SnapshotDiff(old: old, new: new)
        byte(UInt8(ascii: "["))
        if !old.nodes.isEmpty && !new.nodes.isEmpty {
            try diff.compare(0, 0, into: &self)
        }
        byte(UInt8(ascii: "]"))
    }
}

/// The walk of ``JSONCanonicalWriter/patch(from:to:)`` over two tapes.
private struct SnapshotDiff {
    let old: JSONStateSnapshot
    let new: JSONStateSnapshot
    /// The path to the values compared: keys as their text in `new`, or indices.
    var path: [Part] = []
    var operations = 0

    enum Part {
        case key(Range<Int>)
        case index(Int)
    }

    init(old: JSONStateSnapshot, new: JSONStateSnapshot) {
        self.old = old
        self.new = new
    }

    mutating func compare(_ o: Int, _ n: Int, into writer: inout JSONCanonicalWriter) throws {
        let a = old.nodes[o]
        let b = new.nodes[n]
        if a.digest == b.digest, a.kind == b.kind, sameText(a.range, b.range) { return }
        switch (a.kind, b.kind) {
        case (.object, .object):
            try compareMembers(o, n, into: &writer)
        case (.array, .array), (.tree, _), (_, .tree):
            try compareTrees(a, b, into: &writer)
        default:
            begin("s", &writer)
            writer.byte(UInt8(ascii: ","))
            new.text.withUnsafeBufferPointer { writer.bytes(UnsafeBufferPointer(rebasing: $0[b.range])) }
            writer.byte(UInt8(ascii: "]"))
        }
    }

    /// Pairs the members of two objects by key, both in the order of their keys' bytes.
    private mutating func compareMembers(_ o: Int, _ n: Int, into writer: inout JSONCanonicalWriter) throws {
        var i = o + 1
        var j = n + 1
        let oldEnd = old.nodes[o].after
        let newEnd = new.nodes[n].after
        while i < oldEnd || j < newEnd {
            let order = i == oldEnd ? 1 : j == newEnd ? -1 : keyOrder(old.nodes[i].key, new.nodes[j].key)
            if order < 0 {
                // A key gone: its text is in the old snapshot.
                path.append(.key(old.nodes[i].key))
                begin("r", &writer, keyFromOld: true)
                writer.byte(UInt8(ascii: "]"))
                path.removeLast()
                i = old.nodes[i].after
            } else if order > 0 {
                path.append(.key(new.nodes[j].key))
                begin("s", &writer)
                writer.byte(UInt8(ascii: ","))
                let value = new.nodes[j].range
                new.text.withUnsafeBufferPointer { writer.bytes(UnsafeBufferPointer(rebasing: $0[value])) }
                writer.byte(UInt8(ascii: "]"))
                path.removeLast()
                j = new.nodes[j].after
            } else {
                path.append(.key(new.nodes[j].key))
                try compare(i, j, into: &writer)
                path.removeLast()
                i = old.nodes[i].after
                j = new.nodes[j].after
            }
        }
    }

    /// Diffs two values as trees, the path to them put before each operation's own.
    private mutating func compareTrees(_ a: JSONStateNode, _ b: JSONStateNode, into writer: inout JSONCanonicalWriter) throws {
        let before = try old.text.withUnsafeBufferPointer { try JSONValue(parsing: UnsafeBufferPointer(rebasing: $0[a.range])) }
        let after = try new.text.withUnsafeBufferPointer { try JSONValue(parsing: UnsafeBufferPointer(rebasing: $0[b.range])) }
        for operation in JSONPatch.between(before, after).operations {
            if operations > 0 { writer.byte(UInt8(ascii: ",")) }
            operations += 1
            writer.operation(operation) { writer in
                writePath(&writer, keyFromOld: false)
                return !path.isEmpty
            }
        }
    }

    /// `["tag",[path…]` with the comma before it if an operation came before.
    private mutating func begin(_ tag: StaticString, _ writer: inout JSONCanonicalWriter, keyFromOld: Bool = false) {
        if operations > 0 { writer.byte(UInt8(ascii: ",")) }
        operations += 1
        writer.text("[\"")
        writer.text(tag)
        writer.text("\",[")
        writePath(&writer, keyFromOld: keyFromOld)
        writer.byte(UInt8(ascii: "]"))
    }

    /// The components of `path`, comma-separated; the last key read from the old text when
    /// `keyFromOld` (a removed member's).
    private func writePath(_ writer: inout JSONCanonicalWriter, keyFromOld: Bool) {
        for (index, part) in path.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            switch part {
            case .key(let key):
                let text = keyFromOld && index == path.count - 1 ? old.text : new.text
                writer.byte(UInt8(ascii: "\""))
                text.withUnsafeBufferPointer { writer.bytes(UnsafeBufferPointer(rebasing: $0[key])) }
                writer.byte(UInt8(ascii: "\""))
            case .index(let position):
                writer.decimal(position)
            }
        }
    }

    private func sameText(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return old.text.withUnsafeBufferPointer { oldText in
            new.text.withUnsafeBufferPointer { newText in
                a.isEmpty || memcmp(oldText.baseAddress! + a.lowerBound, newText.baseAddress! + b.lowerBound, a.count) == 0
            }
        }
    }

    /// How the old key `a` sorts against the new key `b`, by their bytes.
    private func keyOrder(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        old.text.withUnsafeBufferPointer { oldText in
            new.text.withUnsafeBufferPointer { newText in
                UTF8Bytes.compare(UnsafeBufferPointer(rebasing: oldText[a]), UnsafeBufferPointer(rebasing: newText[b]))
            }
        }
    }
}
