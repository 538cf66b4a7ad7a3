import RewindCore
import RewindJSON

/// Looks for secrets in clear at the fields a session lists as redacted.
///
/// A session's `redacted_paths` are patterns like `password`, `login.password`,
/// `photos[*].secret` (any element of the array) for the state, and
/// `action.didUpdatePassword._0` for the action (and, as outputs are actions, for each
/// output). Wherever such a field is present, it must hold a placeholder
/// `{"$redacted": N}` with N a length of zero or more; `null` (no secret at all) is accepted,
/// and a missing field is not looked at. Any other value is a secret in clear.
public struct RedactionAudit: Sendable {
    enum Component: Hashable, Sendable {
        case key(String)
        case anyIndex
    }

    /// The patterns that apply to the state, parsed.
    let statePatterns: [[Component]]
    /// The patterns that apply to actions, without their `action` prefix, parsed.
    let actionPatterns: [[Component]]

    /// An audit of the fields `patterns` name.
    public init(patterns: some Sequence<String>) {
        var state: [[Component]] = [], action: [[Component]] = []
        for pattern in patterns {
            let components = Self.parse(pattern)
            if case .key("action")? = components.first {
                action.append(Array(components.dropFirst()))
            } else {
                state.append(components)
            }
        }
        statePatterns = state
        actionPatterns = action
    }

    /// Whether there is nothing to look for.
    public var isEmpty: Bool { statePatterns.isEmpty && actionPatterns.isEmpty }

    /// The concrete paths of `state` that hold a clear value, like `photos[3].secret`.
    public func clearValues(inState state: JSONValue) -> [String] {
        var found: [String] = []
        for pattern in statePatterns {
            Self.collect(state, pattern[...], at: "", into: &found)
        }
        return found
    }

    /// The concrete paths of an action (or an output) that hold a clear value, each starting
    /// with `action`, like `action.didUpdatePassword._0`.
    public func clearValues(inAction action: JSONValue) -> [String] {
        var found: [String] = []
        for pattern in actionPatterns {
            Self.collect(action, pattern[...], at: "action", into: &found)
        }
        return found
    }

    /// Whether `value` is a well-formed placeholder: `{"$redacted": N}` with N >= 0.
    public static func isPlaceholder(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, object.count == 1,
            case .int(let length)? = object[Secret.placeholderKey]
        else { return false }
        return length >= 0
    }

    /// Splits a pattern into keys and `[*]`: `photos[*].secret` is photos, any index, secret.
    static func parse(_ pattern: String) -> [Component] {
        guard !pattern.isEmpty else { return [] }
        var components: [Component] = []
        for (offset, segment) in pattern.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            var key = Substring(segment)
            var indices = 0
            while key.hasSuffix("[*]") {
                key = key.dropLast(3)
                indices += 1
            }
            // `[*].secret` (a state that is an array) has no key before its first index.
            if !(offset == 0 && key.isEmpty && indices > 0) {
                components.append(.key(String(key)))
            }
            components.append(contentsOf: repeatElement(.anyIndex, count: indices))
        }
        return components
    }

    private static func collect(_ value: JSONValue, _ pattern: ArraySlice<Component>, at path: String, into found: inout [String]) {
        guard let component = pattern.first else {
            if value != .null && !isPlaceholder(value) { found.append(path.isEmpty ? "(the whole state)" : path) }
            return
        }
        let rest = pattern.dropFirst()
        switch (component, value) {
        case let (.key(key), .object(object)):
            guard let child = object[key] else { return }
            collect(child, rest, at: path.isEmpty ? key : "\(path).\(key)", into: &found)
        case let (.anyIndex, .array(elements)):
            for (index, element) in elements.enumerated() {
                collect(element, rest, at: "\(path)[\(index)]", into: &found)
            }
        default:
            return
        }
    }
}
