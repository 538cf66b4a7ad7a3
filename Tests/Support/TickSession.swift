import Foundation
import RewindCore
import RewindLog

/// A log of one 1,000-step session of a counter that ticks, and that session as a store holds
/// it: what the tests of uploads and of receiving them send.
public enum TickSession {
    /// Records the session into `source.rewind` in `folder`; returns that path and its copy.
    public static func recorded(in folder: TemporaryDirectory) throws -> (path: String, copy: StoredSessionCopy) {
        let path = folder.path("source.rewind")
        let recorder = Recorder<Int, Tick>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...1_000 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        let reader = try LogReader(path: path)
        return (path, try reader.storedCopy(of: try reader.session("1")))
    }

    /// The counter's one action.
    public enum Tick: String, Codable, Sendable, DescribedAction {
        case tick
        public var origin: String { "test" }
    }
}
