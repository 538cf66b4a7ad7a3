import Foundation
import RewindJSON
import RewindLog
import RewindRendering

/// The inspector's entry point over one log: what every `rewind` read command asks.
public struct LogInspector: Sendable {
    public let reader: LogReader

    /// Opens the log at `path` read-only.
    ///
    /// - Parameter verifying: check what is read against its checksums and digests (see
    ///   ``LogReader/init(path:verifying:)``).
    public init(path: String, verifying: Bool = true) throws(LogError) {
        reader = try LogReader(path: path, verifying: verifying)
    }

    /// The inspector over a log already open, such as a ``LogFollower``'s.
    public init(reader: LogReader) {
        self.reader = reader
    }

    /// The log's path.
    public var path: String { reader.path }

    /// Every session of the log.
    public func sessions() throws(LogError) -> [SessionSummary] {
        try reader.sessions()
    }

    /// The session named by number or name; nil when the log holds exactly one.
    public func session(_ selector: String?) throws(LogError) -> SessionSummary {
        try reader.session(selector)
    }

    /// The timeline of steps `range` of a session: each action and what it changed.
    public func timeline(of session: SessionSummary, steps range: ClosedRange<Int>) throws(LogError) -> [TimelineEntry] {
        var entries: [TimelineEntry] = []
        try walkPages(of: session, steps: range, pageSize: Self.pageSize) { entries += $0 }
        return entries
    }

    /// The steps of a page of ``pages(of:steps:pageSize:_:)``, unless told otherwise.
    public static let pageSize = 500

    /// The same timeline, handed over a page at a time as the log is read, so that a long
    /// session prints its first lines at once and never sits whole in memory.
    ///
    /// An error `body` throws ends the walk and comes out as it was; every other error is a
    /// ``LogError``.
    public func pages(
        of session: SessionSummary, steps range: ClosedRange<Int>, pageSize: Int = LogInspector.pageSize,
        _ body: ([TimelineEntry]) throws -> Void
    ) throws {
        var caller = CallerError()
        do {
            try walkPages(of: session, steps: range, pageSize: pageSize) { page throws(LogError) in try caller.run { try body(page) } }
        } catch {
            throw caller.error ?? error
        }
    }

    /// ``pages(of:steps:pageSize:_:)`` for a `body` that throws only ``LogError``s, which come
    /// out as they were.
    func walkPages(
        of session: SessionSummary, steps range: ClosedRange<Int>, pageSize: Int,
        _ body: ([TimelineEntry]) throws(LogError) -> Void
    ) throws(LogError) {
        var page: [TimelineEntry] = []
        page.reserveCapacity(pageSize)
        // Read before the walk (whose read is open meanwhile), and only for a session with
        // missing steps: most have none.
        let gaps = session.eventCount < session.lastStep ? try reader.gaps(of: session) : []
        var expected = max(1, range.lowerBound)
        // From the first kept step of a trimmed session: the steps before it are missing.
        if let notKept = session.notKept, expected == notKept.upperBound + 1 { expected = 1 }
        try reader.walk(session, steps: range) { event, before, after in
            var missing: LoggedGap?
            if event.step != expected {
                // The state before this step is not in the log: it is stored whole, and no
                // change is shown. The reason is the marker that covers the step expected.
                let reason = gaps.first { $0.steps.contains(expected) }?.reason ?? "not recorded"
                missing = LoggedGap(steps: expected...(event.step - 1), reason: reason)
            }
            expected = event.step + 1
            var entry = TimelineEntry(
                step: event.step,
                offset: event.time.timeIntervalSince(session.startedAt),
                origin: event.origin,
                name: event.actionName,
                cause: event.cause,
                action: event.action,
                outputs: event.outputs.map { ValueSummary.payload(of: $0, name: "output") },
                changes: missing == nil ? JSONDiff.changes(from: before, to: after) : []
            )
            entry.missing = missing
            page.append(entry)
            if page.count == pageSize {
                try body(page)
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { try body(page) }
    }

    /// The field-level changes from the state at step `from` to the state at step `to`.
    public func diff(of session: SessionSummary, from: Int, to: Int) throws(LogError) -> [JSONChange] {
        let old = try reader.state(of: session, at: from)
        let new = try reader.state(of: session, at: to)
        return JSONDiff.changes(from: old, to: new)
    }
}
