/// Leaf-level differences between two JSON values, for people to read.
///
/// Unlike `JSONPatch`, which aims at a compact edit for storage, this reports each changed
/// leaf at the path where a reader would look for it.
public enum JSONDiff {
    /// The changes turning `old` into `new`, in document order.
    ///
    /// Objects are compared key by key: keys only in `old` are `removed`, keys only in `new`
    /// are `added`. Arrays whose elements, in both values, are all objects with a unique scalar
    /// `"id"` are matched by id: matched pairs are compared at the path of their new index,
    /// unmatched old elements are `removed` at their old index and unmatched new ones `added`
    /// at their new index, so a pure reordering reports nothing. Other arrays are compared
    /// index by index, surplus elements at the end being `added` or `removed`. Anything else
    /// that differs, including a change of type, is one `changed`.
    public static func changes(from old: JSONValue, to new: JSONValue) -> [JSONChange] {
        var changes: [JSONChange] = []
        var path: [JSONPath.Component] = []
        compare(old, new, path: &path, into: &changes)
        return changes
    }

    // Containers are walked rather than first compared with `==`, which would compare every
    // subtree once per level above it.
    private static func compare(_ old: JSONValue, _ new: JSONValue, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        if old.sharesStorage(with: new) { return }
        // Nested switches rather than one over a tuple, which would copy both values.
        switch old {
        case .object(let oldObject):
            if case .object(let newObject) = new {
                return compareObjects(oldObject, newObject, path: &path, into: &changes)
            }
        case .array(let oldElements):
            if case .array(let newElements) = new {
                // When ids sit at the same indices, matching by id pairs elements as indices do.
                if !idsAlign(oldElements, newElements), let match = IDMatch(oldElements, newElements) {
                    return compareByID(oldElements, newElements, match, path: &path, into: &changes)
                }
                return compareByIndex(oldElements, newElements, path: &path, into: &changes)
            }
        case .null, .bool, .int, .double, .string:
            if old == new { return }
        }
        changes.append(JSONChange(path: JSONPath(path), kind: .changed(from: old, to: new)))
    }

    private static func compareObjects(_ old: JSONObject, _ new: JSONObject, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
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

    private static func compareByIndex(_ old: [JSONValue], _ new: [JSONValue], path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
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

    /// The ids of two arrays' elements and where each id sits, when every element of both is
    /// an object with a scalar `"id"` that is unique in its array.
    private struct IDMatch {
        let oldIDs: [JSONValue]
        let newIDs: [JSONValue]
        let oldPositions: [JSONValue: Int]
        let newPositions: [JSONValue: Int]

        init?(_ old: [JSONValue], _ new: [JSONValue]) {
            guard let oldIDs = Self.ids(of: old), let newIDs = Self.ids(of: new),
                let oldPositions = Self.positions(of: oldIDs), let newPositions = Self.positions(of: newIDs)
            else { return nil }
            self.oldIDs = oldIDs
            self.newIDs = newIDs
            self.oldPositions = oldPositions
            self.newPositions = newPositions
        }

        private static func ids(of elements: [JSONValue]) -> [JSONValue]? {
            var ids: [JSONValue] = []
            ids.reserveCapacity(elements.count)
            for element in elements {
                guard let id = JSONDiff.id(of: element) else { return nil }
                ids.append(id)
            }
            return ids
        }

        private static func positions(of ids: [JSONValue]) -> [JSONValue: Int]? {
            var positions: [JSONValue: Int] = [:]
            positions.reserveCapacity(ids.count)
            for (index, id) in ids.enumerated() where positions.updateValue(index, forKey: id) != nil {
                return nil
            }
            return positions
        }
    }

    /// The scalar `"id"` of an object element, if it has one.
    private static func id(of element: JSONValue) -> JSONValue? {
        guard case .object(let object) = element, let id = object["id"] else { return .none }
        switch id {
        case .array, .object: return .none
        case .null, .bool, .int, .double, .string: return id
        }
    }

    /// Whether both arrays have the same length and the same id (or lack of one) at each index.
    private static func idsAlign(_ old: [JSONValue], _ new: [JSONValue]) -> Bool {
        guard old.count == new.count else { return false }
        for (a, b) in zip(old, new) where id(of: a) != id(of: b) {
            return false
        }
        return true
    }

    private static func compareByID(_ old: [JSONValue], _ new: [JSONValue], _ ids: IDMatch, path: inout [JSONPath.Component], into changes: inout [JSONChange])
    {
        let removed = old.indices.filter { ids.newPositions[ids.oldIDs[$0]] == nil }
        var nextRemoved = removed.startIndex
        // Removals are interleaved by index with the rest, so the list reads top to bottom.
        func emitRemovals(upTo index: Int, into changes: inout [JSONChange]) {
            while nextRemoved < removed.endIndex, removed[nextRemoved] <= index {
                let oldIndex = removed[nextRemoved]
                changes.append(JSONChange(path: JSONPath(path + [.index(oldIndex)]), kind: .removed(old[oldIndex])))
                nextRemoved += 1
            }
        }
        for (newIndex, element) in new.enumerated() {
            emitRemovals(upTo: newIndex, into: &changes)
            if let oldIndex = ids.oldPositions[ids.newIDs[newIndex]] {
                path.append(.index(newIndex))
                compare(old[oldIndex], element, path: &path, into: &changes)
                path.removeLast()
            } else {
                changes.append(JSONChange(path: JSONPath(path + [.index(newIndex)]), kind: .added(element)))
            }
        }
        emitRemovals(upTo: .max, into: &changes)
    }
}
