import Foundation
import RewindCore
import RewindJSON

/// Writes a recorded value as Swift an app's test compiles: literals, enum cases with their
/// payloads, arrays, dictionaries, optionals, `UUID(uuidString:)`, dates and secrets by their
/// placeholder, and structs through the initializer `@RewindCodable` names.
///
/// Each spelling is made from the decoded value (by `Mirror`) and checked against the JSON the
/// recording holds for it: where the two do not agree in shape (a type with its own coding
/// keys, a set, a class, a struct with no initializer named), the value is written as
/// `decodedFromRecordedJSON(#"…"#)`, which reads it back exactly as the recorder encoded it,
/// rather than as Swift that might be wrong.
struct SwiftSpeller {
    /// Writes every value but a scalar through its recorded JSON (`--values json`).
    var prefersJSON = false
    /// The modules the spelled types come from, for the test's imports.
    var modules: Set<String> = []
    /// Whether a spelling used `decodedFromRecordedJSON`, which throws: the statement needs `try`.
    var decodes = false

    /// `value`, recorded as `json`, as a Swift expression.
    mutating func spell(_ value: Any, _ json: JSONValue) -> String {
        if let scalar = scalar(value, json) { return scalar }
        if !prefersJSON, let compound = compound(value, json) { return compound }
        return decoded(json)
    }

    mutating func decoded(_ json: JSONValue) -> String {
        decodes = true
        return "decodedFromRecordedJSON(\(SwiftLiteral.raw(json.canonicalString)))"
    }

    mutating func scalar(_ value: Any, _ json: JSONValue) -> String? {
        switch value {
        case let secret as Secret:
            guard case .object(let object) = json, object.count == 1, case .int(let length)? = object[Secret.placeholderKey], length == secret.count else {
                return nil
            }
            modules.insert("RewindCore")
            return "Secret(redactedLength: \(length))"
        case let string as String:
            guard case .string(string) = json else { return nil }
            return SwiftLiteral.string(string)
        case let bool as Bool:
            guard case .bool(bool) = json else { return nil }
            return bool ? "true" : "false"
        case let integer as any BinaryInteger:
            guard case .int(let recorded) = json, String(recorded) == "\(integer)" else { return nil }
            return "\(integer)"
        case let double as Double:
            return floatingPoint(double, json, description: "\(double)")
        case let float as Float:
            return floatingPoint(Double(float), json, description: "\(float)")
        case let uuid as UUID:
            guard case .string(let text) = json, text.uppercased() == uuid.uuidString else { return nil }
            modules.insert("Foundation")
            return "UUID(uuidString: \(SwiftLiteral.string(uuid.uuidString)))!"
        case let date as Date:
            // Exact: a double's description reads back as the same double.
            modules.insert("Foundation")
            return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
        case let url as URL:
            guard url.baseURL == nil, case .string(url.absoluteString) = json else { return nil }
            modules.insert("Foundation")
            return "URL(string: \(SwiftLiteral.string(url.absoluteString)))!"
        case is Decimal, is Data:
            return nil
        default:
            return nil
        }
    }

    func floatingPoint(_ value: Double, _ json: JSONValue, description: String) -> String? {
        guard value.isFinite else { return nil }
        switch json {
        case .double(let recorded) where recorded == value: return description
        case .int(let recorded) where Double(recorded) == value: return description
        default: return nil
        }
    }

    mutating func compound(_ value: Any, _ json: JSONValue) -> String? {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return json == .null ? "nil" : nil }
            return json == .null ? nil : spell(wrapped, json)
        case .enum:
            return enumCase(value, mirror, json)
        case .struct:
            return structure(value, mirror, json)
        case .collection:
            guard case .array(let elements) = json, elements.count == mirror.children.count else { return nil }
            return "[" + zip(mirror.children, elements).map { spell($0.value, $1) }.joined(separator: ", ") + "]"
        case .dictionary:
            guard case .object(let object) = json, object.count == mirror.children.count else { return nil }
            var entries: [(key: String, value: Any)] = []
            for entry in mirror.children {
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2, let key = pair[0].value as? String else { return nil }
                entries.append((key, pair[1].value))
            }
            if entries.isEmpty { return "[:]" }
            var parts: [String] = []
            for entry in entries.sorted(by: { $0.key < $1.key }) {
                guard let recorded = object[entry.key] else { return nil }
                parts.append("\(SwiftLiteral.string(entry.key)): \(spell(entry.value, recorded))")
            }
            return "[" + parts.joined(separator: ", ") + "]"
        default:
            return nil
        }
    }

    /// `.case` or `.case(label: payload, …)`, checked against Codable's shape for an enum:
    /// `"raw"` or `{"case":{}}`, and `{"case":{"label":…}}` or `{"case":{"_0":…}}`.
    mutating func enumCase(_ value: Any, _ mirror: Mirror, _ json: JSONValue) -> String? {
        guard let child = mirror.children.first else {
            guard !(value is any CustomStringConvertible) else { return nil }
            let name = "\(value)"
            guard SwiftLiteral.isIdentifier(name) else { return nil }
            switch json {
            case .string: return "." + SwiftLiteral.member(name)
            case .object(let object) where object.count == 1 && object.keys[0] == name: return "." + SwiftLiteral.member(name)
            default: return nil
            }
        }
        guard let name = child.label, SwiftLiteral.isIdentifier(name), case .object(let object) = json, object.count == 1, object.keys[0] == name,
            case .object(let payload) = object.values[0]
        else { return nil }
        let parts: [(label: String, value: Any)]
        let tuple = Mirror(reflecting: child.value)
        // Several values, or one with a label, come as a tuple; one without, as itself. A nil
        // optional may be left out of the recorded payload.
        if tuple.displayStyle == .tuple {
            parts = tuple.children.enumerated().map { index, element in
                let label = element.label ?? ".\(index)"
                return (label.hasPrefix(".") ? "_\(index)" : label, element.value)
            }
        } else {
            parts = [("_0", child.value)]
        }
        var arguments: [String] = []
        var used = 0
        for (index, part) in parts.enumerated() {
            let spelled: String
            if let recorded = payload[part.label] {
                used += 1
                spelled = spell(part.value, recorded)
            } else {
                let inner = Mirror(reflecting: part.value)
                guard inner.displayStyle == .optional, inner.children.isEmpty else { return nil }
                spelled = "nil"
            }
            if part.label == "_\(index)" {
                arguments.append(spelled)
            } else {
                guard SwiftLiteral.isIdentifier(part.label) else { return nil }
                arguments.append("\(part.label): \(spelled)")
            }
        }
        guard used == payload.count else { return nil }
        return "." + SwiftLiteral.member(name) + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// `Type(label: value, …)`, through the initializer whose labels the type names
    /// (`JSONTreeEncodable.initializerLabels`, which `@RewindCodable` writes): a struct's
    /// memberwise initializer is gone once it declares one of its own, which nothing at run
    /// time can tell, so a type that names none is written as its recorded JSON.
    mutating func structure(_ value: Any, _ mirror: Mirror, _ json: JSONValue) -> String? {
        guard let coded = type(of: value) as? any JSONTreeEncodable.Type, let labels = coded.initializerLabels else { return nil }
        let name = SwiftTypeName(String(reflecting: type(of: value)))
        guard let typeName = name.spelled, case .object(let object) = json else { return nil }
        var children: [String: Any] = [:]
        for child in mirror.children {
            if let label = child.label { children[label] = child.value }
        }
        var arguments: [String] = []
        for label in labels {
            guard SwiftLiteral.isIdentifier(label), let child = children[label] else { return nil }
            if let recorded = object[label] {
                arguments.append("\(label): \(spell(child, recorded))")
            } else {
                let inner = Mirror(reflecting: child)
                guard inner.displayStyle == .optional, inner.children.isEmpty else { return nil }
                arguments.append("\(label): nil")
            }
        }
        modules.formUnion(name.modules)
        return typeName + "(" + arguments.joined(separator: ", ") + ")"
    }
}
