import Foundation
import RewindCore
import RewindReplay
import Testing

/// Replays every session of the recording at `path` through your reducers and throws a
/// ``ReplayFailure`` with the first divergence and its field-level diff. Works in any test
/// framework: an XCTest method that `throws` fails with the description.
///
/// ```swift
/// let flows = ReplayRegistry([ReplayFlow("login") { LoginFeature(backend: .unused) }])
/// try verifyReplay(of: "recordings/login-happy.rewind", flows: flows)
/// ```
public func verifyReplay(of path: String, flows: ReplayRegistry, session: String? = nil) throws {
    let replays: [SessionReplay]
    do {
        replays = try Replayer(registry: flows).replay(path: path, session: session)
    } catch {
        throw ReplayFailure(description: "\(error)")
    }
    let failures = replays.filter { !$0.passed }
    guard failures.isEmpty else {
        throw ReplayFailure(description: failures.flatMap { ReplayReport.lines($0, style: .plain) }.joined(separator: "\n"))
    }
}

/// Swift Testing's form of ``verifyReplay(of:flows:session:)``: records an issue at the
/// caller with the first divergence and its diff.
public func expectReplay(
    of path: String, flows: ReplayRegistry, session: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        try verifyReplay(of: path, flows: flows, session: session)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
    }
}
