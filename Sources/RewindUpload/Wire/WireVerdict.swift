/// A replay's verdict, as `POST /v1/sessions/{id}/verdict` takes it: `{"outcome", "step",
/// "build", "at"}` (`at`, seconds since 1970, is the client's clock: the collector keeps its own).
package struct WireVerdict: Codable, Sendable, Equatable {
    package var outcome: String
    package var step: Int
    package var build: String
    package var at: Int?

    package init(outcome: String, step: Int, build: String, at: Int? = nil) {
        self.outcome = outcome
        self.step = step
        self.build = build
        self.at = at
    }

    /// The collector's answer: `{"session", "verdict", "build"}`, the verdict as its text.
    package struct Kept: Codable, Sendable, Equatable {
        package var session: String
        package var verdict: String
        package var build: String

        package init(session: String, verdict: String, build: String) {
            self.session = session
            self.verdict = verdict
            self.build = build
        }
    }
}
