import Foundation
import RewindInspector
import RewindJSON
import RewindLog
import RewindRendering

/// One session's part of a report: the state before its first step shown, then each step's
/// row as the log stores it (a keyframe or a patch), for the page to rebuild states from.
///
/// The shape is the contract with `Assets/report.js`, documented in docs/cli/report.md ("The data, for tools"). Rows are
/// arrays, not objects, and repeated names and origins are numbered: a 10,000-step session
/// stays around a megabyte.
struct ReportSession {
    let summary: SessionSummary
    /// The steps shown.
    let steps: ClosedRange<Int>
    /// The last step the rows go to: what a live page asks after next (`steps` holds one
    /// step even when there is none).
    let through: Int
    /// The state at the step before the first shown; nil when that step was not recorded (the
    /// first row is then a keyframe, as after every gap).
    let base: JSONValue?
    let events: [LoggedEvent]
    let gaps: [LoggedGap]
    let comparison: ReportComparison?

    /// Reads steps `range` (all when nil) of `summary` from `reader`; without `base`, not the
    /// state before them (a live page that holds it already: rebuilding a state of 10,000 items
    /// at every load is what a load of the new steps saves).
    init(
        _ summary: SessionSummary, steps range: ClosedRange<Int>?, comparison: ReportComparison?, reader: LogReader, base withBase: Bool = true
    ) throws(LogError) {
        self.summary = summary
        // A trimmed session is shown from its first kept step.
        let first = max(summary.firstKeptStep, range?.lowerBound ?? 1)
        let last = min(summary.lastStep, range?.upperBound ?? summary.lastStep)
        let shown = first...max(first, last)
        steps = shown
        through = max(first - 1, last)
        if !withBase || summary.notKept?.contains(first - 1) == true {
            base = nil
        } else {
            do {
                base = try reader.state(of: summary, at: first - 1)
            } catch LogError.notRecorded {
                base = nil
            }
        }
        events = last < first ? [] : try reader.events(of: summary, steps: first...last)
        // The front a retention trimmed is listed too, before the steps shown.
        gaps = try reader.gaps(of: summary).filter { $0.steps.overlaps(shown) || $0.isNotKept }
        self.comparison = comparison
    }

    var json: JSONValue {
        // Values a session repeats are written once and named by number: origins, action
        // names, actions and patches (100,000 random login steps hold 32 actions and 43
        // patches; written once, the page went from 14.5 MB to 3.1 MB and its first view from
        // 1.71 s to 0.65 s). Values match byte for byte, so `é` and `e` + U+0301 stay two.
        var origins = Interning()
        var names = Interning()
        var actions = Interning()
        var patches = Interning()
        let rows: [JSONValue] = events.map { event in
            let payload = ValueSummary.payload(of: event.action, name: event.actionName)
            let milliseconds = (event.time.timeIntervalSince(summary.startedAt) * 1000).rounded()
            let action = actions.number(
                .array([
                    .int(names.number(.string(event.actionName))),
                    payload.isEmpty ? .null : .string("\(event.actionName)(\(payload))"),
                    ReportValues.forPage(event.action),
                ]))
            let change: JSONValue =
                if let keyframe = event.keyframe {
                    ReportValues.forPage(keyframe)
                } else {
                    .int(patches.number(ReportValues.forPage(event.patch?.json ?? .array([]))))
                }
            return .array([
                .int(event.step),
                milliseconds.magnitude < 1e15 ? .int(Int(milliseconds)) : .null,
                .int(origins.number(.string(event.origin))),
                .int(action),
                event.cause.map(JSONValue.int) ?? .null,
                event.keyframe == nil ? .int(1) : .int(0),
                change,
            ])
        }
        var object = JSONObject([
            ("number", .int(summary.number)),
            ("flow", .string(summary.flow)),
            ("started", .string(SessionsRenderer.timestamp(summary.startedAt))),
            ("duration", .string(SessionsRenderer.duration(summary))),
            ("lastStep", .int(summary.lastStep)),
            ("events", .int(summary.eventCount)),
            ("first", .int(steps.lowerBound)),
            ("last", .int(steps.upperBound)),
            ("through", .int(through)),
            ("redacted", .array(summary.redactedPaths.map(JSONValue.string))),
            ("gaps", .array(gaps.map { .array([.int($0.steps.lowerBound), .int($0.steps.upperBound), .string($0.reason)]) })),
            ("origins", .array(origins.values)),
            ("names", .array(names.values)),
            ("base", base.map(ReportValues.forPage) ?? .null),
            // The initial state may be null itself.
            ("hasBase", .bool(base != nil)),
            ("actions", .array(actions.values)),
            ("patches", .array(patches.values)),
            ("rows", .array(rows)),
        ])
        object["name"] = summary.name.map(JSONValue.string)
        // Why a flight recorder sent the session: shown on its tab, as text.
        object["report"] = summary.report.map { .string($0.text) }
        if let comparison {
            var fields = JSONObject([
                ("step", .int(comparison.step)),
                ("headline", .string(comparison.headline)),
                ("leftTitle", .string(comparison.leftTitle)),
                ("left", ReportValues.forPage(comparison.left)),
                ("rightTitle", .string(comparison.rightTitle)),
                ("right", ReportValues.forPage(comparison.right)),
            ])
            if !comparison.behaviour.isEmpty { fields["behaviour"] = .array(comparison.behaviour.map(JSONValue.string)) }
            object["comparison"] = .object(fields)
        }
        return .object(object)
    }

    /// Distinct values numbered in the order first met; a value met again, byte for byte (as
    /// `JSONValue` compares), gets its number.
    private struct Interning {
        private(set) var values: [JSONValue] = []
        private var numbers: [JSONValue: Int] = [:]

        mutating func number(_ value: JSONValue) -> Int {
            if let known = numbers[value] { return known }
            numbers[value] = values.count
            values.append(value)
            return values.count - 1
        }
    }
}
