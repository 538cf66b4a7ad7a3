import RewindCore
import RewindJSON

/// The statements that turn one recorded state into the next, assigning only what changed:
/// a struct's changed fields one by one, an identified array's elements by identity
/// (`$0.items[id: 3]?.title = …`, as Rewind's diff names them `items[id=3].title`), elements
/// appended or removed as such, and anything else (an enum, a scalar, a reordered array)
/// assigned whole.
struct StateAssignments {
    var speller: SwiftSpeller
    private(set) var statements: [String] = []

    init(speller: SwiftSpeller) {
        self.speller = speller
    }

    /// Adds the statements from `before` to `after`, each recorded as its JSON, at `path`
    /// (`$0` for the whole state).
    mutating func add(at path: String, from before: Any, _ beforeJSON: JSONValue, to after: Any, _ afterJSON: JSONValue) {
        guard beforeJSON != afterJSON else { return }
        if !(after is Secret), type(of: before) == type(of: after) {
            let afterMirror = Mirror(reflecting: after)
            let beforeMirror = Mirror(reflecting: before)
            switch afterMirror.displayStyle {
            case .struct:
                if fields(at: path, beforeMirror, beforeJSON, afterMirror, afterJSON) { return }
            case .optional:
                if let wrappedBefore = beforeMirror.children.first?.value, let wrappedAfter = afterMirror.children.first?.value {
                    return add(at: path + "?", from: wrappedBefore, beforeJSON, to: wrappedAfter, afterJSON)
                }
            case .collection:
                if case .array(let old) = beforeJSON, case .array(let new) = afterJSON,
                    elements(at: path, Array(beforeMirror.children.map(\.value)), old, Array(afterMirror.children.map(\.value)), new)
                {
                    return
                }
            default:
                break
            }
        }
        assign(path, after, afterJSON)
    }

    mutating func assign(_ path: String, _ value: Any, _ json: JSONValue) {
        speller.decodes = false
        let spelled = speller.spell(value, json)
        statements.append("\(path) = \(speller.decodes ? "try " : "")\(spelled)")
    }

    /// A struct's changed fields, when its recorded keys are its stored properties.
    mutating func fields(at path: String, _ beforeMirror: Mirror, _ beforeJSON: JSONValue, _ afterMirror: Mirror, _ afterJSON: JSONValue) -> Bool {
        guard case .object(let old) = beforeJSON, case .object(let new) = afterJSON,
            let beforeFields = Self.fields(beforeMirror, old), let afterFields = Self.fields(afterMirror, new)
        else { return false }
        for (index, field) in afterFields.enumerated() {
            let label = field.label
            add(at: path + "." + SwiftLiteral.member(label), from: beforeFields[index].value, old[label] ?? .null, to: field.value, new[label] ?? .null)
        }
        return true
    }

    /// A struct's stored properties, when every recorded key is one of them and every one
    /// left out is a `nil` optional.
    static func fields(_ mirror: Mirror, _ object: JSONObject) -> [(label: String, value: Any)]? {
        var fields: [(label: String, value: Any)] = []
        var recorded = 0
        for child in mirror.children {
            guard let label = child.label, SwiftLiteral.isIdentifier(label), !label.hasPrefix("_") else { return nil }
            if object[label] != nil {
                recorded += 1
            } else {
                let inner = Mirror(reflecting: child.value)
                guard inner.displayStyle == .optional, inner.children.isEmpty else { return nil }
            }
            fields.append((label, child.value))
        }
        return recorded == object.count ? fields : nil
    }

    /// An array's change as element edits: by identity where every element is `Identifiable`
    /// with a recorded `id`, else by position; false when only a whole assignment says it.
    mutating func elements(at path: String, _ before: [Any], _ old: [JSONValue], _ after: [Any], _ new: [JSONValue]) -> Bool {
        guard before.count == old.count, after.count == new.count else { return false }
        if let oldIDs = Self.identities(before, old), let newIDs = Self.identities(after, new), !(oldIDs.isEmpty && newIDs.isEmpty) {
            return identified(at: path, before, old, oldIDs, after, new, newIDs)
        }
        let shared = min(old.count, new.count)
        guard old.count == new.count || old[shared...].isEmpty || new[shared...].isEmpty else { return false }
        for index in 0..<shared {
            add(at: "\(path)[\(index)]", from: before[index], old[index], to: after[index], new[index])
        }
        if old.count > new.count {
            statements.append("\(path).removeLast(\(old.count - new.count))")
        }
        for index in shared..<new.count {
            append(to: path, after[index], new[index])
        }
        return true
    }

    mutating func identified(
        at path: String, _ before: [Any], _ old: [JSONValue], _ oldIDs: [JSONValue], _ after: [Any], _ new: [JSONValue], _ newIDs: [JSONValue]
    ) -> Bool {
        let kept = oldIDs.filter(newIDs.contains)
        let added = newIDs.filter { !oldIDs.contains($0) }
        // Removals, then appends: any other order (an insertion, a move) is assigned whole.
        guard Array(newIDs.prefix(kept.count)) == kept, newIDs.count == kept.count + added.count else { return false }
        for (index, id) in oldIDs.enumerated() where !newIDs.contains(id) {
            statements.append("\(path)[id: \(speller.spell(Self.id(of: before[index])!, id))] = nil")
        }
        for (newIndex, id) in newIDs.enumerated() {
            if let oldIndex = oldIDs.firstIndex(of: id) {
                let spelledID = speller.spell(Self.id(of: after[newIndex])!, id)
                add(at: "\(path)[id: \(spelledID)]?", from: before[oldIndex], old[oldIndex], to: after[newIndex], new[newIndex])
            } else {
                append(to: path, after[newIndex], new[newIndex])
            }
        }
        return true
    }

    mutating func append(to path: String, _ value: Any, _ json: JSONValue) {
        speller.decodes = false
        let spelled = speller.spell(value, json)
        statements.append("\(speller.decodes ? "try " : "")\(path).append(\(spelled))")
    }

    /// The recorded ids of elements that are `Identifiable` through a stored `id`, when they
    /// are unique; nil otherwise.
    static func identities(_ values: [Any], _ json: [JSONValue]) -> [JSONValue]? {
        var ids: [JSONValue] = []
        var seen: Set<JSONValue> = []
        for (value, element) in zip(values, json) {
            guard id(of: value) != nil, Mirror(reflecting: value).children.contains(where: { $0.label == "id" }),
                case .object(let object) = element, let recorded = object["id"], seen.insert(recorded).inserted
            else { return nil }
            ids.append(recorded)
        }
        return ids
    }

    static func id(of value: Any) -> Any? {
        guard let identifiable = value as? any Identifiable else { return nil }
        return openID(identifiable)
    }

    private static func openID<T: Identifiable>(_ value: T) -> Any { value.id }
}
