extension JSONValue {
    /// This value with `patch` applied; all or nothing.
    public func applying(_ patch: JSONPatch) throws(JSONPatchError) -> JSONValue {
        var result = self
        try result.apply(patch)
        return result
    }

    /// Applies `patch` in place, touching only the parts it changes.
    ///
    /// If an operation fails, the ones before it stay applied; use `applying(_:)` for
    /// all-or-nothing.
    public mutating func apply(_ patch: JSONPatch) throws(JSONPatchError) {
        for (index, operation) in patch.operations.enumerated() {
            do {
                try apply(operation)
            } catch {
                throw JSONPatchError(kind: .inapplicable, operationIndex: index, reason: error.reason)
            }
        }
    }

    /// Why an operation failed, before it is known which operation of the patch it is.
    struct Failure: Error {
        let reason: String
    }

    private mutating func apply(_ operation: JSONPatch.Operation) throws(Failure) {
        switch operation {
        case .set(let path, let value):
            guard let last = path.components.last else {
                self = value
                return
            }
            try modify(at: path.components.dropLast(), of: path) { parent throws(Failure) in
                switch last {
                case .key(let key):
                    guard case .object(var object) = parent else { throw Self.mismatch("an object", parent, at: path.parent) }
                    parent = .null
                    object[key] = value
                    parent = .object(object)
                case .index(let index):
                    guard case .array(var elements) = parent else { throw Self.mismatch("an array", parent, at: path.parent) }
                    try Self.check(index, in: elements, at: path.parent)
                    parent = .null
                    elements[index] = value
                    parent = .array(elements)
                case .id, .wildcard:
                    throw Self.notPositional(path)
                }
            }
        case .remove(let path):
            guard case .key(let key)? = path.components.last else {
                throw Failure(reason: "remove at \(path) must address an object member; array elements are spliced")
            }
            try modify(at: path.components.dropLast(), of: path) { parent throws(Failure) in
                guard case .object(var object) = parent else { throw Self.mismatch("an object", parent, at: path.parent) }
                guard object.index(of: key) != nil else { throw Self.missing(key, at: path.parent) }
                parent = .null
                object[key] = .none
                parent = .object(object)
            }
        case .splice(let path, let range, let replacement):
            try modify(at: path.components[...], of: path) { target throws(Failure) in
                guard case .array(var elements) = target else { throw Self.mismatch("an array", target, at: path) }
                guard range.lowerBound >= 0, range.upperBound <= elements.count else {
                    throw Failure(reason: "range \(range) is out of bounds of the array at \(path), which has \(elements.count)")
                }
                target = .null
                elements.replaceSubrange(range, with: replacement)
                target = .array(elements)
            }
        }
    }

    /// Runs `body` on the value at `components`, a prefix of `path`, in place.
    ///
    /// Each container is moved out of its parent while its child is modified, so that its
    /// storage stays uniquely referenced and copy-on-write never copies the untouched parts.
    private mutating func modify(
        at components: ArraySlice<JSONPath.Component>, of path: JSONPath,
        _ body: (inout JSONValue) throws(Failure) -> Void
    ) throws(Failure) {
        guard let first = components.first else {
            try body(&self)
            return
        }
        let rest = components.dropFirst()
        // Slices keep the indices of `path.components`, so this is the path of `self`.
        let here = { JSONPath(Array(path.components[..<components.startIndex])) }
        switch first {
        case .key(let key):
            guard case .object(var object) = self else { throw Self.mismatch("an object", self, at: here()) }
            guard let index = object.index(of: key) else { throw Self.missing(key, at: here()) }
            self = .null
            defer { self = .object(object) }
            try object.values[index].modify(at: rest, of: path, body)
        case .index(let index):
            guard case .array(var elements) = self else { throw Self.mismatch("an array", self, at: here()) }
            try Self.check(index, in: elements, at: here())
            self = .null
            defer { self = .array(elements) }
            try elements[index].modify(at: rest, of: path, body)
        case .id, .wildcard:
            throw Self.notPositional(path)
        }
    }

    // A patch is an edit of positions, computed from two values; selectors are for reading.
    private static func notPositional(_ path: JSONPath) -> Failure {
        Failure(reason: "a patch addresses places by key and index, not as \(path) does")
    }

    private static func check(_ index: Int, in elements: [JSONValue], at path: JSONPath) throws(Failure) {
        guard !elements.indices.contains(index) else { return }
        throw Failure(reason: "no element \(index) in the array at \(path), which has \(elements.count)")
    }

    private static func missing(_ key: String, at path: JSONPath) -> Failure {
        Failure(reason: "no key \(JSONParser.quoted(key)) in the object at \(path)")
    }

    private static func mismatch(_ expected: String, _ found: JSONValue, at path: JSONPath) -> Failure {
        Failure(reason: "expected \(expected) at \(path), found \(found.kindDescription)")
    }

    /// The kind of value, for messages: "an object", "a string"...
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
