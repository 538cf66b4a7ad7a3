/// Leaf-level differences between two JSON values, for people to read.
///
/// Unlike `JSONPatch`, which aims at a compact edit for storage, this reports each changed
/// leaf at the path where a reader would look for it.
public enum JSONDiff {
    /// The changes turning `old` into `new`, in document order.
    ///
    /// Objects are compared key by key: keys only in `old` are `removed`, keys only in `new`
    /// are `added`. Identified arrays (see ``JSONIdentity``: in both values, every element an
    /// object with a unique scalar `id`) are matched by id and their elements named `[id=…]`:
    /// an element only in `old` is one `removed`, one only in `new` one `added`, and of the
    /// elements in both, the fewest that account for a new order are `moved` (the others keep
    /// their order), each then compared with itself. Other arrays are compared index by index,
    /// surplus elements at the end being `added` or `removed`. Anything else that differs,
    /// including a change of type, is one `changed`.
    public static func changes(from old: JSONValue, to new: JSONValue) -> [JSONChange] {
        var changes: [JSONChange] = []
        var path: [JSONPath.Component] = []
        compare(old, new, path: &path, into: &changes)
        return changes
    }

    // Containers are walked rather than first compared with `==`, which would compare every
    // subtree once per level above it.
    static func compare(_ old: JSONValue, _ new: JSONValue, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        if old.sharesStorage(with: new) { return }
        // Nested switches rather than one over a tuple, which would copy both values.
        switch old {
        case .object(let oldObject):
            if case .object(let newObject) = new {
                return compareObjects(oldObject, newObject, path: &path, into: &changes)
            }
        case .array(let oldElements):
            if case .array(let newElements) = new {
                return compareArrays(oldElements, newElements, path: &path, into: &changes)
            }
        case .null, .bool, .int, .double, .string:
            if old == new { return }
        }
        changes.append(JSONChange(path: JSONPath(path), kind: .changed(from: old, to: new)))
    }

    static func compareObjects(_ old: JSONObject, _ new: JSONObject, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        if haveSameKeys(old.keys, new.keys) { return compareMembers(old, new, path: &path, into: &changes) }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            let order = i == old.count ? 1 : j == new.count ? -1 : UTF8Bytes.compare(old.keys[i], new.keys[j])
            if order < 0 {
                changes.append(JSONChange(path: JSONPath(path + [.key(old.keys[i])]), kind: .removed(old.values[i])))
                i += 1
            } else if order > 0 {
                changes.append(JSONChange(path: JSONPath(path + [.key(new.keys[j])]), kind: .added(new.values[j])))
                j += 1
            } else {
                path.append(.key(new.keys[j]))
                compare(old.values[i], new.values[j], path: &path, into: &changes)
                path.removeLast()
                i += 1
                j += 1
            }
        }
    }

    /// Whether both objects have the same keys: two of one type, the usual case, whose keys
    /// are most often the same strings (a type's coding keys), told by their bytes.
    static func haveSameKeys(_ old: [String], _ new: [String]) -> Bool {
        guard old.count == new.count else { return false }
        return old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                old.hasSameBytes(as: new) || old.indices.allSatisfy { UTF8Bytes.equal(old[$0], new[$0]) }
            }
        }
    }

    /// Compares the members of two objects with the same keys, pair by pair in place: an
    /// unchanged member, most of them, costs a comparison of its bytes or of its scalars, and
    /// neither a step of the path nor a copy. Two 1,000-photo states encoded apart cost 5,005
    /// instructions a photo with the keys merged in order and every member copied out, 1,831
    /// this way (callgrind, `rewind-recording-probe diff`; `instructions_diff_large`).
    static func compareMembers(_ old: JSONObject, _ new: JSONObject, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        old.values.withUnsafeBufferPointer { oldValues in
            new.values.withUnsafeBufferPointer { newValues in
                for index in oldValues.indices where !oldValues.hasSameBytes(at: index, as: newValues, at: index) {
                    if oldValues[index].isScalar(equalTo: newValues[index]) { continue }
                    path.append(.key(new.keys[index]))
                    compare(oldValues[index], newValues[index], path: &path, into: &changes)
                    path.removeLast()
                }
            }
        }
    }

    static func compareByIndex(_ old: [JSONValue], _ new: [JSONValue], path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        let shared = min(old.count, new.count)
        for index in 0..<shared {
            path.append(.index(index))
            compare(old[index], new[index], path: &path, into: &changes)
            path.removeLast()
        }
        for index in shared..<old.count {
            changes.append(JSONChange(path: JSONPath(path + [.index(index)]), kind: .removed(old[index])))
        }
        for index in shared..<new.count {
            changes.append(JSONChange(path: JSONPath(path + [.index(index)]), kind: .added(new[index])))
        }
    }
}
