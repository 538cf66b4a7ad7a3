#if Servers
import Foundation
import Hummingbird
import RewindCore
import RewindLog
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// `POST /v1/sessions/{id}/verdict`, a read token's: `{"outcome", "step", "build"}`, what
    /// `rewind replay … --record-verdict BUILD` says of the session, kept beside it.
    func verdict(_ request: Request, _ context: CollectorRequestContext) async throws -> Response {
        let id = try context.sessionID()
        let body = try await Self.body(of: request, limit: 4_096, seconds: limits.bodySeconds)
        guard let sent = try? JSONDecoder().decode(WireVerdict.self, from: Data(body)) else {
            throw CollectorError.badRequest("a verdict is JSON: {\"outcome\": \"passed\", \"step\": 0, \"build\": \"abc123\"}")
        }
        guard let outcome = ReplayVerdict.Outcome(rawValue: sent.outcome) else {
            throw CollectorError(
                status: 422, code: "invalid_value",
                "outcome is one of \(ReplayVerdict.Outcome.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...LogBounds.maximumStep).contains(sent.step), outcome != .passed || sent.step == 0 else {
            throw CollectorError(status: 422, code: "invalid_value", "step is a recorded step (0 for passed)")
        }
        guard ReplayVerdict.isValidBuild(sent.build) else {
            throw CollectorError(
                status: 422, code: "invalid_value", "build is 1 to \(ReplayVerdict.maximumBuildBytes) printable ASCII characters")
        }
        let verdict = ReplayVerdict(outcome: outcome, step: sent.step, build: sent.build, at: Date())
        guard try await store.record(verdict, for: id) else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return try Self.json(WireVerdict.Kept(session: id.uuidString, verdict: verdict.text, build: verdict.build))
    }
}
#endif
