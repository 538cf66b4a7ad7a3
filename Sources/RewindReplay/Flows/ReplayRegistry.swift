/// The flows a replayer knows, by name.
public struct ReplayRegistry: Sendable {
    private var flows: [String: ReplayFlow] = [:]

    public init(_ flows: [ReplayFlow] = []) {
        for flow in flows { register(flow) }
    }

    /// Adds or replaces a flow.
    public mutating func register(_ flow: ReplayFlow) {
        flows[flow.name] = flow
    }

    public subscript(name: String) -> ReplayFlow? {
        flows[name]
    }

    /// The registered names, sorted.
    public var names: [String] { flows.keys.sorted() }
}
