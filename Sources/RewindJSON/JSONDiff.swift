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

    private static func compare(_ old: JSONValue, _ new: JSONValue, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
        guard old != new else { return }
        switch (old, new) {
        case let (.object(old), .object(new)):
            compareObjects(old, new, path: &path, into: &changes)
        case let (.array(old), .array(new)):
            // Identical id sequences pair elements exactly as indices do, so they skip the matching.
            if let oldIDs = ids(of: old), let newIDs = ids(of: new), oldIDs != newIDs,
               let oldPositions = positions(of: oldIDs), let newPositions = positions(of: newIDs) {
                let ids = IDMatch(oldIDs: oldIDs, newIDs: newIDs, oldPositions: oldPositions, newPositions: newPositions)
                compareByID(old, new, ids, path: &path, into: &changes)
            } else {
                compareByIndex(old, new, path: &path, into: &changes)
            }
        default:
            changes.append(JSONChange(path: JSONPath(path), kind: .changed(from: old, to: new)))
        }
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

    /// The ids of two arrays' elements and where each id sits.
    private struct IDMatch {
        let oldIDs: [JSONValue]
        let newIDs: [JSONValue]
        let oldPositions: [JSONValue: Int]
        let newPositions: [JSONValue: Int]
    }

    private static func compareByID(_ old: [JSONValue], _ new: [JSONValue], _ ids: IDMatch, path: inout [JSONPath.Component], into changes: inout [JSONChange]) {
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

    /// The `"id"` of every element, if all are objects with a scalar id.
    private static func ids(of elements: [JSONValue]) -> [JSONValue]? {
        var ids: [JSONValue] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let object) = element, let id = object["id"] else { return nil }
            switch id {
            case .array, .object: return nil
            case .null, .bool, .int, .double, .string: ids.append(id)
            }
        }
        return ids
    }

    /// Where each id sits, if no id repeats.
    private static func positions(of ids: [JSONValue]) -> [JSONValue: Int]? {
        var positions: [JSONValue: Int] = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() where positions.updateValue(index, forKey: id) != nil {
            return nil
        }
        return positions
    }
}
