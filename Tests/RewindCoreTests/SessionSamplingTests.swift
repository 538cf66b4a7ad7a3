import Foundation
import RewindJSON
import Testing

@testable import RewindCore

/// Recording a fraction of sessions, each decided once from its id.
@Suite struct SessionSamplingTests {
    /// A UUID whose first six bytes read `prefix`, the rest zero.
    static func id(prefix: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: prefix >> (8 * (5 - index))) }
        return NSUUID(uuidBytes: bytes) as UUID
    }

    @Test func theIdsFirst48BitsReadAsANumberBelowTheFractionDecide() {
        let quarter = UInt64(1) << 46  // 2^48 / 4
        #expect(SessionSampling.includes(Self.id(prefix: 0), fraction: 0.000_001))
        #expect(SessionSampling.includes(Self.id(prefix: quarter - 1), fraction: 0.25))
        #expect(!SessionSampling.includes(Self.id(prefix: quarter), fraction: 0.25))
        #expect(!SessionSampling.includes(Self.id(prefix: (UInt64(1) << 48) - 1), fraction: 0.999_999))
        #expect(SessionSampling.includes(Self.id(prefix: (UInt64(1) << 48) - 1), fraction: 1))
        #expect(!SessionSampling.includes(Self.id(prefix: 0), fraction: 0))
    }

    @Test func aFractionOfSessionsIsThatFractionOfIds() {
        // 10,000 ids spread evenly over the 48 bits, as random ones are on average.
        let step = (UInt64(1) << 48) / 10_000
        let included = (0..<10_000).filter { SessionSampling.includes(Self.id(prefix: UInt64($0) * step + 12_345), fraction: 0.1) }
        #expect(included.count == 1_000)
        let random = (0..<10_000).filter { _ in SessionSampling.includes(UUID(), fraction: 0.1) }.count
        #expect((700...1_300).contains(random), "\(random) of 10,000 random ids at 0.1 (off by more than 9 sigma)")
    }

    @Test func aSessionLeftOutRecordsNothingAndStartsNoThread() async throws {
        for (prefix, recorded) in [(UInt64(0), true), ((UInt64(1) << 48) - 1, false)] {
            let sink = InMemorySink.inMemory()
            var configuration = RecorderConfiguration()
            configuration.sampling = 0.5
            var session = SessionDescriptor(name: "counter", flow: "counter", now: { Date(timeIntervalSince1970: 0) })
            session.id = Self.id(prefix: prefix)
            let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session, configuration: configuration)
            #expect(recorder.isRecording == recorded)
            await MainActor.run {
                let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [recorder], execution: .manual)
                store.send(.increment)
                store.send(.increment)
                #expect(store.state.count == 2, "the store works the same")
            }
            recorder.flush()
            recorder.close()
            #expect(sink.sessions.map(\.events.count) == (recorded ? [2] : []))
        }
    }
}
