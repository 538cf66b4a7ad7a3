import RewindJSON

/// The live inspector's answer to an app's long poll, `GET /v1/live/sessions/{id}/commands`:
/// `{"epoch", "commands": [{"number", "command"}]}`, the commands after the number the app
/// asked from, in order. `epoch` names the inspector's run: numbers start again at 1 when it
/// changes. A command is JSON the app decodes itself (`LiveCommand`).
package struct WireLiveCommands: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var number: Int
        package var command: JSONValue

        package init(number: Int, command: JSONValue) {
            self.number = number
            self.command = command
        }
    }

    package var epoch: String
    package var commands: [Entry]

    package init(epoch: String, commands: [Entry]) {
        self.epoch = epoch
        self.commands = commands
    }

    /// Reads an answer; nil when it has no list of commands. An entry without a number or a
    /// command is left out; an answer without an epoch has the empty one.
    package init?(json: JSONValue) {
        guard case .array(let listed)? = json[JSONPath("commands")] else { return nil }
        epoch = if case .string(let epoch)? = json[JSONPath("epoch")] { epoch } else { "" }
        commands = listed.compactMap { entry in
            guard case .int(let number)? = entry[JSONPath("number")], let command = entry[JSONPath("command")] else { return nil }
            return Entry(number: number, command: command)
        }
    }

    package var json: JSONValue {
        .object(
            JSONObject([
                ("epoch", .string(epoch)),
                ("commands", .array(commands.map { .object(JSONObject([("number", .int($0.number)), ("command", $0.command)])) })),
            ]))
    }
}
