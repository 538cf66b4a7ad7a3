import RewindJSON

/// The live inspector's answer to a page's or a tool's command, `202` to
/// `POST /live/sessions/{id}/commands`: `{"number"}`, the number the command is queued under,
/// which the app's outcome names when it has carried it out or refused it.
package struct WireLiveQueued: Sendable, Equatable {
    package var number: Int

    package init(number: Int) {
        self.number = number
    }

    /// Reads an answer; nil without a number.
    package init?(json: JSONValue) {
        guard case .int(let number)? = json[JSONPath("number")] else { return nil }
        self.number = number
    }

    package var json: JSONValue { .object(JSONObject([("number", .int(number))])) }
}
