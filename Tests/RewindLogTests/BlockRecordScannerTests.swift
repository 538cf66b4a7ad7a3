import RewindJSON
import Testing

@testable import RewindLog

/// The scanner that finds a block's records (`BlockRecordScanner`) skips strings and brackets
/// eight bytes at a time: these tests put every tricky byte at every place in a word, and cut
/// a block at every byte into a buffer of exactly that size (run under the address sanitizer
/// in CI, a read past the end would be reported).
@Suite struct BlockRecordScannerTests {
    /// String bodies whose quotes, backslashes and brackets the scanner must tell apart.
    static let bodies = [#"plain"#, #"a\"b"#, #"\\"#, #"\\\""#, #"{[x]}"#, #"]}"#, #"\u0022\\n"#, #"é\t"#, ""]

    /// The record of step `index`: its origin, action, cause, outputs and effects as written.
    struct Record {
        var origin: String
        var action: String
        var cause: Int
        var outputs: String
        var effects: String

        init(index: Int, body: String, pad: Int) {
            let filler = String(repeating: "p", count: pad)
            origin = "o\(filler)\(body)"
            action = #"{"k\#(filler)":"\#(body)","n":[1,{"x":"]"},[]],"t":true}"#
            cause = index
            outputs = #"[{"out\#(filler)":"\#(body)"}]"#
            effects = #"{"runs":["r\#(body)"],"sends":[]}"#
        }

        var text: String {
            #"[1795848026802000,-8609143571271409221,"\#(origin)","type",\#(action),[["s",["a\#(origin)"],"\#(origin)"]],null,\#(cause),\#(outputs),\#(effects)]"#
        }
    }

    /// The block of `records`, then a record whose keyframe, a number, ends the block.
    static func block(of records: [Record]) -> [UInt8] {
        Array(("[" + records.map(\.text).joined(separator: ",\n") + ",\n" + lastRecord + "]").utf8)
    }

    static let lastRecord = #"[1795848026802001,7,"o","t",{},null,12345678901234567]"#

    static func records(body: String) -> [Record] {
        (0..<17).map { Record(index: $0, body: body, pad: $0) }
    }

    static func string(_ bytes: UnsafeRawBufferPointer?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `test` with the records of `body`, their block, and a scanner at its start.
    static func scanning(
        _ body: String, _ test: ([Record], UnsafeRawBufferPointer, UnescapedStrings, inout BlockRecordScanner) throws -> Void
    ) throws {
        let records = Self.records(body: body)
        let unescaped = UnescapedStrings()
        try Self.block(of: records).withUnsafeBytes { bytes in
            unescaped.reset(capacity: bytes.count)
            var scanner = try BlockRecordScanner(bytes, session: 1, firstStep: 10, unescaped: unescaped)
            try test(records, bytes, unescaped, &scanner)
        }
    }

    @Test(arguments: bodies)
    func actionsAndBehaviourAreFoundWhereverTheirBytesFallInAWord(body: String) throws {
        try Self.scanning(body) { records, bytes, unescaped, scanner in
            var read = 0
            while let found = try scanner.nextAction(readingBehaviour: true) {
                guard read < records.count else {
                    #expect(Self.string(found.action) == "{}")
                    #expect(found.digest == 7)
                    #expect(found.cause == nil && found.outputs == nil && found.effects == nil)
                    read += 1
                    continue
                }
                let record = records[read]
                #expect(Self.string(found.action) == record.action)
                #expect(found.digest == -8_609_143_571_271_409_221)
                #expect(found.cause == Int64(record.cause))
                #expect(Self.string(found.outputs) == record.outputs)
                #expect(Self.string(found.effects) == record.effects)
                read += 1
            }
            #expect(read == records.count + 1)

            var actionsOnly = try BlockRecordScanner(bytes, session: 1, firstStep: 10, unescaped: unescaped)
            var actions: [String?] = []
            while let found = try actionsOnly.nextAction() { actions.append(Self.string(found.action)) }
            #expect(actions == records.map(\.action) + ["{}"])
        }
    }

    @Test(arguments: bodies)
    func rowsHoldEveryElementWhereverItsBytesFallInAWord(body: String) throws {
        try Self.scanning(body) { records, bytes, unescaped, scanner in
            var columns: [StoredColumn] = []
            var read = 0
            let column = LogReader.EventColumn.self
            while try scanner.next(into: &columns) {
                guard read < records.count else {
                    guard case .text(let keyframe) = columns[column.keyframe] else {
                        Issue.record("the last step has no keyframe")
                        return
                    }
                    #expect(Self.string(keyframe) == "12345678901234567")
                    read += 1
                    continue
                }
                let record = records[read]
                guard case .text(let origin) = columns[column.origin], case .text(let action) = columns[column.action],
                    case .text(let patch) = columns[column.patch], case .integer(let step) = columns[column.step]
                else {
                    Issue.record("step \(read)'s columns are not as written")
                    return
                }
                // The origin comes unescaped: `\"` as `"`, `\u0022` as `"`, `\t` as a tab.
                #expect(try Self.string(origin) == Self.unescaped(record.origin))
                #expect(Self.string(action) == record.action)
                #expect(Self.string(patch) == #"[["s",["a\#(record.origin)"],"\#(record.origin)"]]"#)
                #expect(step == Int64(10 + read))
                read += 1
            }
            #expect(read == records.count + 1)
        }
    }

    /// The string whose JSON body is `text`.
    static func unescaped(_ text: String) throws -> String? {
        guard case .string(let string) = try JSONValue(parsing: "\"\(text)\"") else { return nil }
        return string
    }

    @Test func aBlockCutAtAnyByteIsRefusedWithoutReadingPastItsEnd() throws {
        let block = Self.block(of: Array(Self.records(body: #"a\"b]}"#).prefix(3)))
        let unescaped = UnescapedStrings()
        for length in 0..<block.count {
            // A buffer of exactly `length` bytes, so that a read past its end is one the address
            // sanitizer sees.
            let cut = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
            defer { cut.deallocate() }
            cut.copyBytes(from: block[..<length])
            let bytes = UnsafeRawBufferPointer(cut)
            unescaped.reset(capacity: length)
            for mode in 0..<3 {
                #expect(throws: BlockRecordScanner.Malformed.self, "cut at \(length), mode \(mode)") {
                    var scanner = try BlockRecordScanner(bytes, session: 1, firstStep: 1, unescaped: unescaped)
                    var columns: [StoredColumn] = []
                    switch mode {
                    case 0: while try scanner.next(into: &columns) {}
                    case 1: while try scanner.nextAction() != nil {}
                    default: while try scanner.nextAction(readingBehaviour: true) != nil {}
                    }
                }
            }
        }
    }
}
