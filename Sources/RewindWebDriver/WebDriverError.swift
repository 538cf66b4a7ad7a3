/// A WebDriver command that failed: what was sent, the HTTP status, and what chromedriver said.
///
/// `error` is WebDriver's error code (`no such element`, `javascript error`, ...), so that a
/// test can tell one failure from another without parsing the message.
public struct WebDriverError: Error, CustomStringConvertible {
    /// The command, as `POST /session/{id}/element`, or a step of starting the browser.
    public var command: String
    /// The HTTP status, or nil when no answer came (no connection, a timeout, a launch step).
    public var status: Int?
    /// WebDriver's error code, empty when the failure was not chromedriver's answer.
    public var error: String = ""
    public var message: String

    public var description: String {
        let status = status.map { " (HTTP \($0)\(error.isEmpty ? "" : ", \(error)"))" } ?? ""
        return "WebDriver \(command) failed\(status): \(message)"
    }
}
