import Foundation
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// A long pass reads its rows on a thread of its own (`RowPrefetcher`): what it meets, and
/// when, must be what a pass on one thread meets.
@Suite struct ReadingAheadTests {
    static let steps = 6_000

    /// A log of `steps` ticks, each state the step's number.
    private func ticks(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("ticks.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...Self.steps { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        try sink.close()
        return path
    }

    /// The same log with a changed block (steps 2816 through 3071), a block whose record holds
    /// a value of the wrong kind (3840 through 4095) and a missing step (5000).
    private func damagedTicks(in folder: TemporaryDirectory) throws -> String {
        let path = try ticks(in: folder)
        let surgery = BlockSurgery(path: path)
        try surgery.editRecord(session: 1, step: 3000) { $0[5] = [["s", [], 3001]] }
        try surgery.editRecord(session: 1, step: 4000, resealing: true) { $0[2] = 7 }
        try surgery.removeStep(session: 1, step: 5000)
        return path
    }

    /// Where two sequences first differ, so that a failure does not print 6,000 elements.
    private func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        a.count != b.count ? min(a.count, b.count) : a.indices.first { a[$0] != b[$0] }
    }

    private func scanned(_ reader: LogReader, readingAheadFrom threshold: Int, upTo limit: Int = .max) throws -> [StoredStep] {
        let session = try reader.session(nil)
        var rows: [StoredStep] = []
        try reader.scan(session, readingAheadFrom: threshold) { row in
            rows.append(row)
            return rows.count < limit
        }
        return rows
    }

    @Test func aScanReadingAheadHandsOverEveryRowAsAScanInOrderDoes() throws {
        let folder = try TemporaryDirectory()
        let reader = try LogReader(path: try damagedTicks(in: folder))
        let ahead = try scanned(reader, readingAheadFrom: 0)
        let inOrder = try scanned(reader, readingAheadFrom: .max)
        #expect(ahead.count == Self.steps - 1 && inOrder.count == ahead.count)
        #expect(firstDifference(ahead.map(\.step), inOrder.map(\.step)) == nil)
        #expect(firstDifference(ahead.map(\.rowCheck), inOrder.map(\.rowCheck)) == nil)
        #expect(firstDifference(ahead.map(\.event), inOrder.map(\.event)) == nil)
        let damaged = ahead.filter { $0.rowCheck == .mismatch }.map(\.step)
        #expect(damaged == Array(2816...3071))
        #expect(ahead.filter { if case .failure = $0.event { true } else { false } }.map(\.step) == Array(3840...4095))
    }

    @Test func aScanStoppedEarlyStopsReadingAhead() throws {
        let folder = try TemporaryDirectory()
        let reader = try LogReader(path: try ticks(in: folder))
        #expect(firstDifference(try scanned(reader, readingAheadFrom: 0, upTo: 1_000).map(\.step), Array(1...1_000)) == nil)
        // The reading thread has let go of the connection: the next read does not wait for it.
        #expect(try scanned(reader, readingAheadFrom: 0).count == Self.steps)
    }

    private func walked(_ reader: LogReader, readingAhead: Bool, throwingAt failing: Int? = nil) -> (steps: [Int], states: [JSONValue], error: LogError?) {
        var steps: [Int] = []
        var states: [JSONValue] = []
        do {
            let session = try reader.session(nil)
            try reader.walkStates(session, steps: 1...session.lastStep, readingAhead: readingAhead) { event, state in
                if event.step == failing { throw CancellationError() }
                steps.append(event.step)
                states.append(state)
            }
            return (steps, states, nil)
        } catch {
            return (steps, states, error)
        }
    }

    @Test func aWalkReadingAheadMeetsTheStatesAndTheDamageOfAWalkInOrder() throws {
        let folder = try TemporaryDirectory()
        let sound = try LogReader(path: try ticks(in: folder))
        let ahead = walked(sound, readingAhead: true)
        #expect(ahead.error == nil)
        #expect(firstDifference(ahead.steps, Array(1...Self.steps)) == nil)
        #expect(firstDifference(ahead.states, (1...Self.steps).map { JSONValue.int($0) }) == nil)

        let otherFolder = try TemporaryDirectory()
        let damaged = try LogReader(path: try damagedTicks(in: otherFolder))
        let aheadOfDamage = walked(damaged, readingAhead: true)
        let inOrder = walked(damaged, readingAhead: false)
        #expect(firstDifference(aheadOfDamage.steps, Array(1...2_815)) == nil)
        #expect(firstDifference(aheadOfDamage.states, inOrder.states) == nil)
        let error = try #require(aheadOfDamage.error)
        #expect(error == inOrder.error)
        #expect(
            error.description.contains("step 2816 of session #1 (ticks): its stored block (steps 2816 through 3071) does not match its checksum"),
            "\(error)")
    }

    @Test func anErrorOfTheBodyEndsAWalkReadingAheadAsItEndsAWalkInOrder() throws {
        let folder = try TemporaryDirectory()
        let reader = try LogReader(path: try ticks(in: folder))
        let ahead = walked(reader, readingAhead: true, throwingAt: 2_000)
        let inOrder = walked(reader, readingAhead: false, throwingAt: 2_000)
        #expect(firstDifference(ahead.steps, Array(1...1_999)) == nil && firstDifference(ahead.steps, inOrder.steps) == nil)
        #expect(ahead.error != nil && ahead.error == inOrder.error)
        #expect(ahead.error?.kind == .stoppedByCaller && ahead.error?.underlying is CancellationError, "not damage: \(String(describing: ahead.error))")
        #expect(walked(reader, readingAhead: true).steps.count == Self.steps, "and the reader reads on")
    }
}
