import RewindJSON

/// What an app says after a ``LiveCommand``: carried out or refused, and where the store is
/// now. The live inspector's page shows it (docs/live.md).
public struct LiveOutcome: Sendable, Equatable {
    /// The command's number, as the inspector gave it.
    public var number: Int
    /// Why the command was not carried out, in one line; nil when it was.
    public var refusal: String?
    /// Whether the store shows a past state.
    public var travelling: Bool
    /// The recorded step it shows, when it travelled to one.
    public var shownStep: Int?
    /// The steps left out of the state it shows.
    public var skipped: [Int]
    /// The actions the UI sent while it travels, held back.
    public var held: Int
    /// The present's step.
    public var step: Int

    public init(number: Int, refusal: String?, travelling: Bool, shownStep: Int?, skipped: [Int], held: Int, step: Int) {
        self.number = number
        self.refusal = refusal
        self.travelling = travelling
        self.shownStep = shownStep
        self.skipped = skipped
        self.held = held
        self.step = step
    }

    /// The outcome as the inspector's API carries it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("number", .int(number)), ("refusal", refusal.map(JSONValue.string) ?? .null), ("travelling", .bool(travelling)),
                ("shown_step", shownStep.map(JSONValue.int) ?? .null), ("skipped", .array(skipped.map(JSONValue.int))), ("held", .int(held)),
                ("step", .int(step)),
            ]))
    }

    /// Reads an outcome from its JSON.
    public init(json: JSONValue) throws(LiveWireError) {
        guard case .object(let object) = json, case .int(let number)? = object["number"], case .bool(let travelling)? = object["travelling"],
            case .int(let held)? = object["held"], case .int(let step)? = object["step"], case .array(let skipped)? = object["skipped"]
        else { throw LiveWireError("an outcome is an object with number, travelling, skipped, held and step") }
        var steps: [Int] = []
        for value in skipped.prefix(10_000) {
            guard case .int(let skippedStep) = value else { throw LiveWireError("an outcome's skipped steps are whole numbers") }
            steps.append(skippedStep)
        }
        let refusal: String?
        switch object["refusal"] {
        case .string(let text)?: refusal = String(text.unicodeScalars.prefix(1_000).map(Character.init))
        case nil, .null?: refusal = nil
        default: throw LiveWireError("an outcome's refusal is a string")
        }
        let shown: Int?
        if case .int(let value)? = object["shown_step"] { shown = value } else { shown = nil }
        self.init(number: number, refusal: refusal, travelling: travelling, shownStep: shown, skipped: steps, held: held, step: step)
    }
}
