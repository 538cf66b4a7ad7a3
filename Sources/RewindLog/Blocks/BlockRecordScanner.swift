#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the records of an inflated block (``BlockRecord``) one at a time into event rows, the
/// columns a row of `event` has, whose texts point into the block's bytes.
///
/// Only the record's own structure is read here: its elements are found by skipping over the
/// JSON of each, and the action, patch, keyframe, outputs and effects are handed on as text,
/// parsed by whoever needs them (a replay parses actions, and outputs and effects where a step
/// has them; `find` only patches). A string with
/// escapes (which names and origins seldom have) is unescaped into `unescaped`.
///
/// Why not RewindJSON's parser (`JSONParser+Strings.swift`), which reads strings too: that
/// one validates every byte (UTF-8, control characters) and makes a `String` of each, where
/// this one skips a string by its quotes and backslashes alone, most of a block's bytes, and
/// leaves checking to the parser that later reads the value. The few names and origins with
/// escapes are unescaped into the block's buffer, no `String` made, and a lone surrogate
/// becomes U+FFFD, as a text column's invalid UTF-8 is repaired when read, where the parser
/// refuses it. Only the table of escapes is the same, 20 lines.
struct BlockRecordScanner {
    private let bytes: UnsafeRawBufferPointer
    private let unescaped: UnescapedStrings
    private var offset = 0
    /// The step of the next record.
    private(set) var step: Int
    private let session: Int

    /// Something a recorder never writes into a block.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts at the first record of `bytes`, the inflated block of `session` whose first step
    /// is `firstStep`.
    init(_ bytes: UnsafeRawBufferPointer, session: Int, firstStep: Int, unescaped: UnescapedStrings) throws(Malformed) {
        self.bytes = bytes
        self.unescaped = unescaped
        self.session = session
        self.step = firstStep
        skipWhitespace()
        try expect(UInt8(ascii: "["), "the block is not a JSON array")
    }

    /// Reads the next record into `columns` (``LogReader/eventColumns``' order, the checksum
    /// `NULL`); false after the last, once the array's end is read and nothing follows it.
    mutating func next(into columns: inout [StoredColumn]) throws(Malformed) -> Bool {
        guard try startRecord() else { return false }
        try record(into: &columns)
        hasRecord = true
        step += 1
        return true
    }

    /// Moves to the start of the next record; false at the block's end, once the array's end
    /// is read and nothing follows it.
    private mutating func startRecord() throws(Malformed) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw Malformed(description: "the block ends before its array does") }
        if bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            skipWhitespace()
            guard offset == bytes.count else { throw Malformed(description: "something follows the block's array") }
            return false
        }
        if hasRecord && !isAfterComma {
            try expect(UInt8(ascii: ","), "its records are not separated by commas")
            skipWhitespace()
        }
        isAfterComma = false
        return true
    }

    /// Whether a record was read: the next one follows a comma.
    private var hasRecord = false

    /// The current record's elements, kept from record to record.
    private var elements: [Range<Int>] = []

    /// Reads the next record's elements into `elements`, checking only the record's own
    /// structure: a JSON array of 6 to 10 elements.
    private mutating func recordElements() throws(Malformed) {
        let step = self.step
        try expect(UInt8(ascii: "["), "step \(step)'s record is not a JSON array")
        elements.removeAll(keepingCapacity: true)
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            try checkElementCount()
        } else {
            try readRestOfRecord()
        }
    }

    /// Reads the record's elements after those in `elements`, through its end, and checks
    /// their count.
    private mutating func readRestOfRecord() throws(Malformed) {
        while true {
            let (element, isLast) = try nextElement()
            elements.append(element)
            if isLast { break }
        }
        try checkElementCount()
    }

    /// The current record's element at `index`, nil where it is `null` or left out.
    private func present(_ index: Int) -> Range<Int>? {
        index < elements.count && !isNull(elements[index]) ? elements[index] : nil
    }

    private func checkElementCount() throws(Malformed) {
        guard (6...BlockRecord.elementCount).contains(elements.count) else {
            throw Malformed(description: "step \(step)'s record has \(elements.count) elements, not 6 to \(BlockRecord.elementCount)")
        }
    }

    /// Reads the record's next element and the `,` or `]` after it: its bytes, and whether it
    /// was the record's last.
    private mutating func nextElement() throws(Malformed) -> (Range<Int>, isLast: Bool) {
        skipWhitespace()
        let start = offset
        try skipValue()
        let element = start..<offset
        skipWhitespace()
        guard offset < bytes.count else { throw Malformed(description: "step \(step)'s record is cut short") }
        let byte = bytes[offset]
        offset += 1
        if byte == UInt8(ascii: "]") { return (element, true) }
        guard byte == UInt8(ascii: ",") else { throw Malformed(description: "step \(step)'s record is not a JSON array") }
        return (element, false)
    }

    /// What ``nextAction(readingBehaviour:)`` reads of a record.
    struct ActionRecord {
        var action: UnsafeRawBufferPointer
        var digest: Int64
        /// The cause, outputs and effects, when asked for; nil where the record has none.
        var cause: Int64?
        var outputs: UnsafeRawBufferPointer?
        var effects: UnsafeRawBufferPointer?
    }

    /// Reads the next record's digest and action, all a check of states needs, and with
    /// `readingBehaviour` its cause, outputs and effects, which a replay compares too. Without
    /// it, the elements after the action are not read when the record ends its line, as a
    /// writer writes it (`],\n`); with it, the patch or keyframe is skipped element by element.
    /// Nil after the last record, as ``next(into:)`` is false.
    mutating func nextAction(readingBehaviour: Bool = false) throws(Malformed) -> ActionRecord? {
        guard try startRecord() else { return nil }
        let step = self.step
        try expect(UInt8(ascii: "["), "step \(step)'s record is not a JSON array")
        elements.removeAll(keepingCapacity: true)
        for _ in 0...BlockRecord.Element.action {
            skipWhitespace()
            let start = offset
            try skipValue()
            elements.append(start..<offset)
            skipWhitespace()
            try expect(UInt8(ascii: ","), "step \(step)'s record has fewer than 6 elements")
        }
        var found = ActionRecord(
            action: text(elements[BlockRecord.Element.action]), digest: try integer(elements[BlockRecord.Element.digest], "digest"))
        if !readingBehaviour, let line = nextLine(), line >= offset + 2 {
            offset = line
            isAfterComma = true
        } else {
            // The rest of the record, element by element: the patch or keyframe, then the tail.
            try readRestOfRecord()
            let element = BlockRecord.Element.self
            found.cause = try present(element.cause).map { range throws(Malformed) in try integer(range, "cause") }
            found.outputs = present(element.outputs).map(text)
            found.effects = present(element.effects).map(text)
        }
        hasRecord = true
        self.step += 1
        return found
    }

    /// Where the line after `offset` starts, when it follows a record's end and a comma (`],\n`).
    private func nextLine() -> Int? {
        guard offset < bytes.count, let base = bytes.baseAddress,
            let newline = memchr(base + offset, 0x0A, bytes.count - offset)
        else { return nil }
        let position = base.distance(to: UnsafeRawPointer(newline))
        guard bytes[position - 1] == UInt8(ascii: ","), bytes[position - 2] == UInt8(ascii: "]") else { return nil }
        return position + 1
    }

    /// Whether the comma before the next record was read already (by ``nextAction()``).
    private var isAfterComma = false

    private mutating func record(into columns: inout [StoredColumn]) throws(Malformed) {
        let count = LogReader.eventEffectsIndex + 1
        if columns.count != count { columns = Array(repeating: .null, count: count) }
        let column = LogReader.EventColumn.self
        let step = self.step
        try recordElements()
        let element = BlockRecord.Element.self
        columns[column.sessionID] = .integer(Int64(session))
        columns[column.step] = .integer(Int64(step))
        columns[column.time] = .real(BlockRecord.seconds(try integer(elements[element.time], "time")))
        columns[column.digest] = .integer(try integer(elements[element.digest], "digest"))
        columns[column.origin] = .text(try string(elements[element.origin], "origin"))
        columns[column.actionType] = .text(try string(elements[element.actionType], "action_type"))
        columns[column.action] = .text(text(elements[element.action]))
        if let patch = present(element.patch) {
            guard present(element.keyframe) == nil else {
                throw Malformed(description: "step \(step)'s record holds both a patch and a keyframe")
            }
            columns[column.patch] = .text(text(patch))
            columns[column.keyframe] = .null
        } else {
            // A keyframe may be JSON's `null` itself (a state that encodes so): present, it counts.
            guard elements.count > element.keyframe else {
                throw Malformed(description: "step \(step)'s record holds neither a patch nor a keyframe")
            }
            columns[column.keyframe] = .text(text(elements[element.keyframe]))
            columns[column.patch] = .null
        }
        columns[column.cause] = try present(element.cause).map { range throws(Malformed) in .integer(try integer(range, "cause")) } ?? .null
        columns[column.outputs] = present(element.outputs).map { .text(text($0)) } ?? .null
        columns[LogReader.eventChecksumIndex] = .null
        columns[LogReader.eventEffectsIndex] = present(element.effects).map { .text(text($0)) } ?? .null
    }

    // MARK: Tokens

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ failure: @autoclosure () -> String) throws(Malformed) {
        guard offset < bytes.count, bytes[offset] == byte else { throw Malformed(description: failure()) }
        offset += 1
    }

    /// Moves past the JSON value at `offset`, checking only that its brackets and strings
    /// close: the JSON inside is parsed, and checked, by whoever reads it.
    ///
    /// Most of a block's bytes are skipped here (actions, patches, keyframes), so the loops
    /// read them through the base pointer, without bounds checks (`offset` is checked against
    /// `bytes.count` before each read), and tell a bracket in two comparisons.
    private mutating func skipValue() throws(Malformed) {
        guard offset < bytes.count, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw Malformed(description: "step \(step)'s record is cut short")
        }
        let count = bytes.count
        switch base[offset] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            repeat {
                while offset < count, !Self.isQuoteOrBracket(base[offset]) { offset += 1 }
                guard offset < count else { throw Malformed(description: "step \(step)'s record is cut short") }
                switch base[offset] {
                case UInt8(ascii: "\""):
                    try skipString()
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                default: depth -= 1
                }
                offset += 1
            } while depth > 0
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
            throw Malformed(description: "step \(step)'s record has a value missing")
        default:
            // A number or a literal: up to the next delimiter. Eight bytes at a time to the
            // first that may be one (`,`, `]`, `}` or below 0x21), then byte by byte: a
            // record's time and digest are 16 and 19 digits.
            while offset + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let found =
                    Self.zeroBytes(word ^ Self.word(of: 0x2C)) | Self.zeroBytes((word | Self.word(of: 0x20)) ^ Self.word(of: 0x7D))
                    | (word &- Self.word(of: 0x21)) & ~word & 0x8080_8080_8080_8080
                guard found == 0 else {
                    offset += found.trailingZeroBitCount &>> 3
                    break
                }
                offset += 8
            }
            while offset < count {
                switch base[offset] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return
                default: offset += 1
                }
            }
        }
    }

    /// Moves past the string whose opening quote is at `offset`.
    private mutating func skipString() throws(Malformed) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var position = offset + 1
        while position < count {
            // Eight bytes at a time to the next quote or backslash, while eight remain (the rule
            // of every `loadUnaligned` here: `position + 8 <= count`); byte by byte, the loop
            // cost 9 instructions a byte, a third of the scanner's work on a login block (callgrind).
            if position + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let found = Self.zeroBytes(word ^ Self.word(of: 0x22)) | Self.zeroBytes(word ^ Self.word(of: 0x5C))
                guard found != 0 else {
                    position += 8
                    continue
                }
                position += found.trailingZeroBitCount &>> 3
            }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            if byte == UInt8(ascii: "\"") {
                offset = position + 1
                return
            }
            position += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        offset = position
        throw Malformed(description: "step \(step)'s record has a string that does not end")
    }

    /// The high bit of each zero byte of `word` set: the classic test for a zero byte,
    /// word-wide. Past the first zero byte a borrow may set others, so only the lowest set bit
    /// is certain: which is the first byte matched (`trailingZeroBitCount / 8`, bytes read
    /// little-endian), all the loops here want.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// A word whose eight bytes are all `byte`.
    @inline(__always)
    private static func word(of byte: UInt8) -> UInt64 {
        0x0101_0101_0101_0101 &* UInt64(byte)
    }

    /// Whether `byte` is `"`, or a bracket: `[` and `{` differ by 0x20 alone, as do `]` and `}`.
    ///
    /// Byte by byte: eight at a time (as in ``skipString()``) made skipping a login block's
    /// values 50 % slower, their brackets and quotes one or two bytes apart.
    @inline(__always)
    private static func isQuoteOrBracket(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte | 0x20 == UInt8(ascii: "{") || byte | 0x20 == UInt8(ascii: "}")
    }

    private func isNull(_ range: Range<Int>) -> Bool {
        range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n") && bytes[range.lowerBound + 1] == UInt8(ascii: "u")
            && bytes[range.lowerBound + 2] == UInt8(ascii: "l") && bytes[range.lowerBound + 3] == UInt8(ascii: "l")
    }

    private func text(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    // MARK: Scalars

    /// The string at `range`, unescaped.
    private func string(_ range: Range<Int>, _ name: String) throws(Malformed) -> UnsafeRawBufferPointer {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), bytes[range.upperBound - 1] == UInt8(ascii: "\"") else {
            throw Malformed(description: "step \(step)'s \(name) is not a string")
        }
        let body = range.lowerBound + 1..<range.upperBound - 1
        guard bytes[body].contains(UInt8(ascii: "\\")) else { return text(body) }
        // Unescaped, a string is never longer than escaped.
        let output = unescaped.reserve(body.count)
        var written = 0
        var index = body.lowerBound
        func write(_ byte: UInt8) {
            output[written] = byte
            written += 1
        }
        while index < body.upperBound {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                write(byte)
                continue
            }
            guard index < body.upperBound else { throw Malformed(description: "step \(step)'s \(name) ends in a backslash") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): write(escaped)
            case UInt8(ascii: "b"): write(0x08)
            case UInt8(ascii: "f"): write(0x0C)
            case UInt8(ascii: "n"): write(0x0A)
            case UInt8(ascii: "r"): write(0x0D)
            case UInt8(ascii: "t"): write(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: index, name)
                index += 4
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= body.upperBound, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    let low = try hex4(at: index + 2, name)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                // A lone surrogate becomes U+FFFD, as reading text repairs any invalid UTF-8.
                for unit in String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8 { write(unit) }
            default:
                throw Malformed(description: "step \(step)'s \(name) has an unknown escape")
            }
        }
        unescaped.commit(written)
        return UnsafeRawBufferPointer(rebasing: output[..<written])
    }

    private func hex4(at index: Int, _ name: String) throws(Malformed) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Malformed(description: "step \(step)'s \(name) has a cut \\u escape") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed(description: "step \(step)'s \(name) has a malformed \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The integer at `range`: JSON's grammar, within 64 bits.
    private func integer(_ range: Range<Int>, _ name: String) throws(Malformed) -> Int64 {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Nineteen digits fit in 64 bits unsigned; the bounds are checked below.
        guard index < range.upperBound, range.upperBound - index <= 19 else {
            throw Malformed(description: "step \(step)'s \(name) is not an integer")
        }
        var magnitude: UInt64 = 0
        while index < range.upperBound {
            let byte = bytes[index]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw Malformed(description: "step \(step)'s \(name) is not an integer")
            }
            magnitude = magnitude * 10 + UInt64(byte - UInt8(ascii: "0"))
            index += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw Malformed(description: "step \(step)'s \(name) is out of range") }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw Malformed(description: "step \(step)'s \(name) is out of range") }
        return Int64(magnitude)
    }
}

/// Room for the strings of a block that had escapes, valid until ``reset()``: what the rows
/// of a block point to, beside the block's own bytes.
final class UnescapedStrings {
    private var storage: UnsafeMutableRawBufferPointer
    private var used = 0

    init() {
        storage = .allocate(byteCount: 4_096, alignment: 1)
    }

    deinit {
        storage.deallocate()
    }

    /// Forgets every string; the caller guarantees no row points to one any more. Makes room
    /// for `capacity` bytes, so that reserving never moves what the rows point to.
    func reset(capacity: Int) {
        used = 0
        guard capacity > storage.count else { return }
        storage.deallocate()
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    /// `count` bytes to write a string into; ``commit(_:)`` then says how many it used.
    func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        precondition(used + count <= storage.count, "more unescaped text than the block holds")
        return UnsafeMutableRawBufferPointer(rebasing: storage[used..<used + count])
    }

    func commit(_ count: Int) {
        used += count
    }
}
