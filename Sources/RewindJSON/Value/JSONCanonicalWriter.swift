/// Writes canonical JSON text (see ``JSONValue/canonicalBytes``) into a buffer it grows
/// itself, through a pointer: no byte is appended to an `Array` one at a time.
///
/// A writer kept from one use to the next (``reset()``) allocates nothing once its buffer has
/// grown: a recorder writes each step's record with one.
///
/// Appending each byte to an `[UInt8]` checked the array's uniqueness and capacity every time,
/// and integers were written digit by digit, then reversed: a 1,000-photo keyframe (137 KB)
/// took about 60 instructions a byte (callgrind), for a recorder that writes one every 256
/// steps and an export that writes every state.
public struct JSONCanonicalWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written.
    public private(set) var count = 0

    /// A writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        self.capacity = Swift.max(16, capacity)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// Appends what was written to `buffer`.
    public func append(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    /// What was written, valid during `body`.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// Forgets what was written, keeping the buffer.
    public mutating func reset() {
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        grow(to: count + extra)
    }

    private mutating func grow(to needed: Int) {
        var size = capacity * 2
        while size < needed { size *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        larger.update(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = size
    }

    /// Writes one byte, as it is.
    @inline(__always)
    public mutating func byte(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Writes `bytes` as they are.
    public mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Writes `text` as it is.
    public mutating func text(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `value` in decimal: its digits counted first, then written in place from the
    /// last, two at a time (a record's time and digest are 16 to 20 digits: one at a time,
    /// they cost 300 instructions each).
    public mutating func decimal(_ value: Int) {
        reserve(21)
        var magnitude = value.magnitude
        // The digits, from the number of bits: log10(2) is about 1233 / 4096, which gives the
        // count or one more; the table of powers of ten settles it (a loop multiplying by ten
        // cost 80 instructions for a 19-digit digest).
        let bits = UInt.bitWidth - magnitude.leadingZeroBitCount
        var length = (bits &* 1_233) >> 12 + 1
        if length > 1 && magnitude < Self.powersOfTen[length - 1] { length -= 1 }
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        let pairs = Self.digitPairs.utf8Start
        var end = start + count + length
        while magnitude >= 100 {
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 100)
            end -= 2
            end[0] = pairs[Int(remainder) * 2]
            end[1] = pairs[Int(remainder) * 2 + 1]
            magnitude = quotient
        }
        if magnitude >= 10 {
            start[count] = pairs[Int(magnitude) * 2]
            start[count + 1] = pairs[Int(magnitude) * 2 + 1]
        } else {
            start[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count += length
    }

    /// 10^0 through 10^19, every power of ten a `UInt` holds.
    private static let powersOfTen: [UInt] = (0..<20).map { exponent in (0..<exponent).reduce(1) { power, _ in power * 10 } }

    /// "00" through "99", the two digits of each number below a hundred in turn.
    private static let digitPairs: StaticString = """
        00010203040506070809\
        10111213141516171819\
        20212223242526272829\
        30313233343536373839\
        40414243444546474849\
        50515253545556575859\
        60616263646566676869\
        70717273747576777879\
        80818283848586878889\
        90919293949596979899
        """

    /// Writes `text` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    public mutating func quoted(_ text: String) {
        UTF8Bytes.withBytes(of: text) { body in
            // Escaped, each byte takes at most six.
            reserve(body.count * 6 + 2)
            var out = start + count
            out.pointee = UInt8(ascii: "\"")
            out += 1
            // Eight bytes at a time while none needs escaping (a record's names and a state's
            // strings mostly), then byte by byte: the loop alone cost 6 instructions a byte.
            var rest = body
            while rest.count >= 8, let base = rest.baseAddress {
                let word = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
                guard !Self.needsEscaping(word) else { break }
                UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
                out += 8
                rest = UnsafeBufferPointer(rebasing: rest[8...])
            }
            for byte in rest {
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    out.pointee = byte
                    out += 1
                    continue
                }
                out.pointee = UInt8(ascii: "\\")
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
                case 0x08: out[1] = UInt8(ascii: "b")
                case 0x0C: out[1] = UInt8(ascii: "f")
                case 0x0A: out[1] = UInt8(ascii: "n")
                case 0x0D: out[1] = UInt8(ascii: "r")
                case 0x09: out[1] = UInt8(ascii: "t")
                default:
                    let low = byte & 0x0F
                    out[1] = UInt8(ascii: "u")
                    out[2] = UInt8(ascii: "0")
                    out[3] = UInt8(ascii: "0")
                    out[4] = UInt8(ascii: "0") + (byte >> 4)
                    out[5] = low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10
                    out += 4
                }
                out += 2
            }
            out.pointee = UInt8(ascii: "\"")
            out += 1
            count = start.distance(to: out)
        }
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\\`: the
    /// classic tests for a byte below a bound and for a zero byte, word-wide. Bytes from 0x80
    /// (UTF-8 beyond ASCII) never count.
    @inline(__always)
    static func needsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- 0x20 &* ones) & ~word & highs != 0
        return control || hasZeroByte(word ^ (0x22 &* ones)) || hasZeroByte(word ^ (0x5C &* ones))
    }

    /// Writes the canonical text of `value`.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null:
            text("null")
        case .bool(let flag):
            if flag { text("true") } else { text("false") }
        case .int(let number):
            decimal(number)
        case .double(let number):
            if number.isFinite {
                var description = number.description
                description.withUTF8 { bytes($0) }
            } else {
                text("null")
            }
        case .string(let string):
            quoted(string)
        case .array(let elements):
            byte(UInt8(ascii: "["))
            for index in elements.indices {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.value(elements[index])
            }
            byte(UInt8(ascii: "]"))
        case .object(let object):
            byte(UInt8(ascii: "{"))
            let keys = object.keys
            let values = object.values
            for index in keys.indices {
                if index > 0 { byte(UInt8(ascii: ",")) }
                quoted(keys[index])
                byte(UInt8(ascii: ":"))
                self.value(values[index])
            }
            byte(UInt8(ascii: "}"))
        }
    }
}
