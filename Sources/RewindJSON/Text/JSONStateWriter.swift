#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a value's canonical JSON text and, beside it, a tape: a node per value, with where
/// its text is and its digest, so that two states are compared, hashed and diffed without a
/// tree of either.
///
/// A ``JSONTreeEncodable`` value writes itself with ``JSONTreeEncodable/writeJSON(to:)``:
/// `@RewindCodable` writes that member too, object members in the order of their keys'
/// bytes, so the text is canonical as written. Digests are the structural digests of
/// `JSONValue/digest`, taken as each value is closed. A recorder writes each state and
/// action so; building their trees, hashing the trees and diffing them cost most of what
/// recording a small state took (a login step: 30,000 of 39,000 instructions).
///
/// Without text (``init(writingText:)``), it only takes digests: a replay compares digests.
/// Without digests (``reset(takingDigests:)``), it writes text and structure only: a recorder
/// stores actions' text and never their digests.
public struct JSONStateWriter: ~Copyable {
    /// The text written, canonical JSON.
    public var text = JSONCanonicalWriter()
    /// The nodes of the values written, each before those inside it (see ``withNodes(_:)``).
    private var tape = TrivialBuffer<JSONStateNode>(capacity: 64)
    /// Whether the text is written, or only digests and structure.
    public let writesText: Bool
    /// Whether nodes get digests, or 0.
    public private(set) var takesDigests = true
    /// The nodes of the containers not yet closed, innermost last.
    private var open = TrivialBuffer<Int>(capacity: 16)
    /// The text of the key written for the next value, when it is a member of an object.
    private var pendingKey: Range<Int> = 0..<0
    /// Keys as UTF-8, in order, when no text is written: a key's bytes are hashed at the end.
    private var keyBytes = JSONCanonicalWriter(capacity: 256)

    /// The rule by which arrays are hashed.
    public let rule: StateDigest.Rule

    public init(writingText: Bool = true, rule: StateDigest.Rule = .newest) {
        writesText = writingText
        self.rule = rule
    }

    /// Forgets what was written, keeping the buffers; what is written next gets digests or not.
    public mutating func reset(takingDigests: Bool = true) {
        self.takesDigests = takingDigests
        text.reset()
        tape.removeAll()
        open.removeAll()
        keyBytes.reset()
        pendingKey = 0..<0
    }

    /// The digest of the value written: its first node's.
    public var digest: StateDigest {
        StateDigest(rawValue: tape.isEmpty ? 0 : tape.pointer(at: 0).pointee.digest)
    }

    /// The nodes of the values written, each before those inside it.
    public var nodes: [JSONStateNode] {
        withNodes { Array($0) }
    }

    /// How many values were written, containers included.
    public var nodeCount: Int { tape.count }

    /// Whether an object of exactly one member keyed `key` was written: a secret's
    /// placeholder, `{"$redacted": n}`, in a state written without its tree.
    public func containsSingleMemberObject(keyed key: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        for index in 0..<Swift.max(0, tape.count - 1) {
            let node = tape.pointer(at: index).pointee
            guard node.kind == .object, node.children == 1 else { continue }
            let member = tape.pointer(at: index + 1).pointee.key
            guard member.count == wanted.count, let wantedBase = wanted.baseAddress else { continue }
            let matches =
                writesText
                ? text.withBytes { memcmp($0.baseAddress! + member.lowerBound, wantedBase, wanted.count) == 0 }
                : keyBytes.withBytes { memcmp($0.baseAddress! + member.lowerBound, wantedBase, wanted.count) == 0 }
            if matches { return true }
        }
        return false
    }

    /// The nodes of the values written, valid during `body`.
    public func withNodes<Result>(_ body: (UnsafeBufferPointer<JSONStateNode>) throws -> Result) rethrows -> Result {
        try tape.withElements(body)
    }

    /// The text and the tape written, as a value of their own.
    ///
    /// Both are copied to their size: sharing the tape's buffer had the next ``reset()``
    /// allocate one of the full capacity again.
    public var snapshot: JSONStateSnapshot {
        JSONStateSnapshot(text: text.withBytes { Array($0) }, nodes: tape.withElements { Array($0) })
    }

    // MARK: Containers

    /// Opens an object; its members follow, each a ``key(_:)`` and a value, in the order of
    /// their keys' bytes.
    public mutating func beginObject() {
        open.append(beginValue(.object))
        writeText(UInt8(ascii: "{"))
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        writeText(UInt8(ascii: "}"))
        closeContainer()
    }

    /// Opens an array; its elements follow.
    public mutating func beginArray() {
        open.append(beginValue(.array))
        writeText(UInt8(ascii: "["))
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        writeText(UInt8(ascii: "]"))
        closeContainer()
    }

    /// The key of the next member of the innermost object: an identifier, written as it is
    /// (an identifier holds nothing JSON escapes).
    public mutating func key(_ key: StaticString) {
        separate()
        if writesText {
            text.byte(UInt8(ascii: "\""))
            let start = text.count
            text.bytes(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            pendingKey = start..<text.count
            text.byte(UInt8(ascii: "\""))
        } else {
            let from = keyBytes.count
            keyBytes.bytes(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            pendingKey = from..<keyBytes.count
        }
        writeText(UInt8(ascii: ":"))
    }

    /// The key of the next member of the innermost object: an identifier (a case's name, an
    /// associated value's label), which holds nothing JSON escapes.
    public mutating func key(_ key: String) {
        separate()
        let start = text.count
        if writesText {
            text.quoted(key)
            pendingKey = start + 1..<text.count - 1
        } else {
            let from = keyBytes.count
            UTF8Bytes.withBytes(of: key) { keyBytes.bytes($0) }
            pendingKey = from..<keyBytes.count
        }
        writeText(UInt8(ascii: ":"))
    }

    // MARK: Scalars

    public mutating func null() {
        let node = beginValue(.null)
        if writesText { text.text("null") }
        close(node) { $0.byte(0) }
    }

    public mutating func bool(_ value: Bool) {
        let node = beginValue(.bool)
        if writesText { if value { text.text("true") } else { text.text("false") } }
        close(node) {
            $0.byte(1)
            $0.byte(value ? 1 : 0)
        }
    }

    public mutating func int(_ value: Int) {
        let node = beginValue(.int)
        if writesText { text.decimal(value) }
        close(node) {
            $0.byte(2)
            $0.word(UInt64(bitPattern: Int64(value)))
        }
    }

    /// A double, which must be finite: the caller throws the encoding error of a value that
    /// is not, as `JSONValueEncoder` does.
    public mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON has no spelling for \(value)")
        let node = beginValue(.double)
        if writesText {
            var description = value.description
            description.withUTF8 { text.bytes($0) }
        }
        close(node) {
            $0.byte(3)
            $0.word(value.bitPattern)
        }
    }

    public mutating func string(_ value: String) {
        let node = beginValue(.string)
        if writesText { text.quoted(value) }
        close(node) {
            $0.byte(4)
            $0.string(value)
        }
    }

    /// A value built as a tree (a member whose type writes no text itself): written whole, one
    /// node that a diff compares as a whole.
    public mutating func tree(_ value: JSONValue) {
        let node = beginValue(.tree)
        if writesText { text.value(value) }
        close(node, takesDigests ? value.digest(by: rule).rawValue : 0)
    }

    // MARK: Nodes

    private mutating func writeText(_ byte: UInt8) {
        if writesText { text.byte(byte) }
    }

    /// Writes the comma before a value or member that is not its container's first.
    private mutating func separate() {
        guard !open.isEmpty, tape.pointer(at: open.last).pointee.children > 0 else { return }
        writeText(UInt8(ascii: ","))
    }

    /// Starts the node of a value at this point of the text; returns its index.
    private mutating func beginValue(_ kind: JSONStateNode.Kind) -> Int {
        var key = 0..<0
        if !open.isEmpty {
            let parent = tape.pointer(at: open.last)
            if parent.pointee.kind == .object {
                key = pendingKey
            } else if parent.pointee.children > 0 {
                writeText(UInt8(ascii: ","))
            }
            parent.pointee.children += 1
        }
        tape.append(JSONStateNode(kind: kind, start: text.count, key: key))
        return tape.count - 1
    }

    private mutating func close(_ node: Int, _ digest: UInt64) {
        let closed = tape.pointer(at: node)
        closed.pointee.end = text.count
        closed.pointee.after = tape.count
        closed.pointee.digest = digest
    }

    /// Closes a scalar's node with the digest `hash` takes, when digests are taken.
    @inline(__always)
    private mutating func close(_ node: Int, hashing hash: (inout StructuralHasher.FNV) -> Void) {
        guard takesDigests else { return close(node, 0) }
        var hasher = StructuralHasher.FNV()
        hash(&hasher)
        close(node, hasher.hash)
    }

    /// Closes the innermost container, hashing its members' digests (and keys) in order, an
    /// array's by the rule.
    private mutating func closeContainer() {
        let node = open.removeLast()
        guard takesDigests else { return close(node, 0) }
        var hasher = StructuralHasher.FNV()
        let isObject = tape.pointer(at: node).pointee.kind == .object
        hasher.byte(isObject ? 6 : 5)
        hasher.word(UInt64(tape.pointer(at: node).pointee.children))
        var child = node + 1
        if !isObject && rule == .summed {
            var sum: UInt64 = 0
            var index = 0
            while child < tape.count {
                let element = tape.pointer(at: child)
                sum &+= StateDigest.Rule.term(of: element.pointee.digest, at: index)
                index += 1
                child = element.pointee.after
            }
            hasher.word(sum)
            return close(node, hasher.hash)
        }
        while child < tape.count {
            let member = tape.pointer(at: child)
            if isObject {
                let key = member.pointee.key
                if writesText {
                    text.withBytes { bytes in hasher.bytes(UnsafeBufferPointer(rebasing: bytes[key])) }
                } else {
                    keyBytes.withBytes { bytes in hasher.bytes(UnsafeBufferPointer(rebasing: bytes[key])) }
                }
            }
            hasher.word(member.pointee.digest)
            child = member.pointee.after
        }
        close(node, hasher.hash)
    }
}

/// A value as ``JSONStateWriter`` wrote it: where its text is, its digest, and how far its
/// nodes go.
public struct JSONStateNode: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case null, bool, int, double, string, array, object
        /// A value written whole from a tree: compared as a whole.
        case tree
    }

    public var kind: Kind
    /// Where the value's text starts and ends.
    public var start: Int
    public var end = 0
    /// The text of its key, unquoted, when it is a member of an object.
    public var key: Range<Int>
    /// The index of the first node after this value's (and those inside it).
    public var after = 0
    /// How many members or elements it has, as a container.
    public var children = 0
    /// Its structural digest.
    public var digest: UInt64 = 0

    init(kind: Kind, start: Int, key: Range<Int>) {
        self.kind = kind
        self.start = start
        self.key = key
    }

    /// The range of its text.
    public var range: Range<Int> { start..<end }
}
