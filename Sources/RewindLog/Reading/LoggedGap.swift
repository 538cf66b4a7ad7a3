import Foundation
import RewindCore

/// Steps missing from a session, and why.
public struct LoggedGap: Sendable, Equatable {
    public var steps: ClosedRange<Int>
    public var reason: String
    /// How the gap's stored row compared with its checksum.
    public var rowCheck: RowCheck = .verified

    package init(steps: ClosedRange<Int>, reason: String, rowCheck: RowCheck = .verified) {
        self.steps = steps
        self.reason = reason
        self.rowCheck = rowCheck
    }

    /// Whether these are the steps a log's retention trimmed from the front of its session.
    package var isNotKept: Bool { reason == RecordingGap.notKeptReason }

    /// `steps 1-48,211 not kept`, `step 40 not recorded: the queue was full`: for people.
    package var text: String {
        func grouped(_ number: Int) -> String { number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
        let steps = steps.count == 1 ? "step \(grouped(steps.lowerBound))" : "steps \(grouped(steps.lowerBound))-\(grouped(steps.upperBound))"
        return isNotKept ? "\(steps) not kept" : "\(steps) not recorded: \(reason)"
    }
}
