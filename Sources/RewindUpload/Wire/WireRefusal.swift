import Foundation

/// Every refusal's body, `{"error": {"code", "message", "stored_through", "command"}}`
/// (docs/collector.md): what the servers send and the clients read.
package struct WireRefusal: Codable, Sendable, Equatable {
    /// What went wrong, to match on: one of ``RewindLog/UploadError/Kind``'s codes when the
    /// store refused an upload.
    package var code: String
    package var message: String
    /// The last step the store holds of the session, when the client needs it to go on.
    package var storedThrough: Int?
    /// The command line that gets the client what it asked for another way.
    package var command: String?

    package init(code: String, message: String, storedThrough: Int? = nil, command: String? = nil) {
        self.code = code
        self.message = message
        self.storedThrough = storedThrough
        self.command = command
    }

    enum CodingKeys: String, CodingKey {
        case code, message
        case storedThrough = "stored_through"
        case command
    }

    /// The body, the refusal under `error`.
    private struct Body: Codable {
        var error: WireRefusal
    }

    /// The body's bytes.
    package func body() -> Data {
        (try? WireJSON.encode(Body(error: self))) ?? Data()
    }

    /// The refusal a body holds; nil when it holds none (a proxy's page, say).
    package init?(body: Data) {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: body) else { return nil }
        self = decoded.error
    }
}
