import RewindJSON

/// A command as the live inspector's HTTP API carries it (docs/live.md):
/// `{"command": "travel", "step": 10}`, `{"command": "resume"}`, `{"command": "skip", "step": 5}`,
/// `{"command": "unskip", "step": 5}`, `{"command": "dispatch", "action": {…}}`.
extension LiveCommand {
    /// The command as JSON.
    public var json: JSONValue {
        switch self {
        case .travel(let step): ["command": "travel", "step": .int(step)]
        case .resume: ["command": "resume"]
        case .skip(let step): ["command": "skip", "step": .int(step)]
        case .unskip(let step): ["command": "unskip", "step": .int(step)]
        case .dispatch(let action): ["command": "dispatch", "action": action]
        }
    }

    /// Reads a command from its JSON, refusing anything else with one line that says why.
    public init(json: JSONValue) throws(LiveWireError) {
        guard case .object(let object) = json, case .string(let name)? = object["command"] else {
            throw LiveWireError("a command is an object with a \"command\" name")
        }
        func step() throws(LiveWireError) -> Int {
            guard case .int(let step)? = object["step"], step >= 0 else {
                throw LiveWireError("\"\(name)\" needs a \"step\", a whole number from 0")
            }
            return step
        }
        switch name {
        case "travel": self = .travel(step: try step())
        case "resume": self = .resume
        case "skip": self = .skip(step: try step())
        case "unskip": self = .unskip(step: try step())
        case "dispatch":
            guard let action = object["action"] else { throw LiveWireError("\"dispatch\" needs an \"action\"") }
            self = .dispatch(action: action)
        default:
            throw LiveWireError("no command is called \"\(String(name.unicodeScalars.prefix(40)))\"; one of travel, resume, skip, unskip, dispatch")
        }
    }
}
