/// One place a path names in a document, and the value there.
public struct JSONPathMatch: Hashable, Sendable {
    /// Where the value is, without `[*]`: keys, indices, and ids for the elements of identified
    /// arrays (see ``JSONIdentity``), so that the same element keeps the same path from one state
    /// to the next.
    public let path: JSONPath
    /// The value there.
    public let value: JSONValue

    /// The value at `path`.
    public init(path: JSONPath, value: JSONValue) {
        self.path = path
        self.value = value
    }
}

extension JSONValue {
    /// Every place `path` names in this value, in document order.
    ///
    /// A key or an index names at most one place; an id names each element that has it (one in
    /// an identified array, possibly several in another); `[*]` names every element of an array
    /// or member of an object. Nothing is named inside a value of the wrong kind. With
    /// `namingByID`, an element of an identified array named by its index is also given its id
    /// in the match's path, as diffs name it.
    public func matches(of path: JSONPath, namingByID: Bool = false) -> [JSONPathMatch] {
        var matches: [JSONPathMatch] = []
        var prefix: [JSONPath.Component] = []
        collect(path.components[...], namingByID: namingByID, prefix: &prefix, into: &matches)
        return matches
    }

    private func collect(
        _ rest: ArraySlice<JSONPath.Component>, namingByID: Bool, prefix: inout [JSONPath.Component], into matches: inout [JSONPathMatch]
    ) {
        guard let first = rest.first else {
            matches.append(JSONPathMatch(path: JSONPath(prefix), value: self))
            return
        }
        let tail = rest.dropFirst()
        func descend(_ component: JSONPath.Component, _ value: JSONValue, into matches: inout [JSONPathMatch]) {
            prefix.append(component)
            value.collect(tail, namingByID: namingByID, prefix: &prefix, into: &matches)
            prefix.removeLast()
        }
        switch (first, self) {
        case let (.key(key), .object(object)):
            if let value = object[key] { descend(first, value, into: &matches) }
        case let (.index(index), .array(elements)):
            guard elements.indices.contains(index) else { break }
            let id = namingByID ? JSONIdentity.ids(of: elements).map { JSONPath.Component.id($0[index]) } : nil
            descend(id ?? first, elements[index], into: &matches)
        case let (.id(id), .array(elements)):
            let indices = elements.indices.filter { JSONIdentity.id(of: elements[$0]) == id }
            for index in indices {
                descend(indices.count == 1 ? first : .index(index), elements[index], into: &matches)
            }
        case let (.wildcard, .array(elements)):
            let ids = JSONIdentity.ids(of: elements)
            for (index, element) in elements.enumerated() {
                descend(ids.map { .id($0[index]) } ?? .index(index), element, into: &matches)
            }
        case let (.wildcard, .object(object)):
            for (key, value) in zip(object.keys, object.values) {
                descend(.key(key), value, into: &matches)
            }
        default:
            break
        }
    }
}
