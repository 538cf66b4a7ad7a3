extension JSONPatch {
    /// The patch in its compact JSON form, for storage.
    ///
    /// An array of operations, each an array starting with a one-letter tag:
    ///
    ///     ["s", path, value]                 set
    ///     ["r", path]                        remove
    ///     ["p", path, start, end, [values]]  splice of the elements start..<end
    ///
    /// where `path` is an array of components, strings for keys and integers for indices.
    /// For example `[["s",["photos",3,"title"],"b"],["p",["tags"],0,1,[]]]`.
    public var json: JSONValue {
        .array(
            operations.map { operation in
                switch operation {
                case .set(let path, let value):
                    [.string("s"), Self.json(for: path), value]
                case .remove(let path):
                    [.string("r"), Self.json(for: path)]
                case .splice(let path, let range, let values):
                    [.string("p"), Self.json(for: path), .int(range.lowerBound), .int(range.upperBound), .array(values)]
                }
            })
    }

    /// Reads a patch from the form `json` produces.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(kind: .malformed, operationIndex: nil, reason: "expected an array of operations, found \(json.kindDescription)")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                operations.append(try Self.operation(from: element))
            } catch {
                throw JSONPatchError(kind: .malformed, operationIndex: index, reason: error.reason)
            }
        }
        self.init(operations)
    }

    private static func json(for path: JSONPath) -> JSONValue {
        .array(
            path.components.map { component in
                switch component {
                case .key(let key): .string(key)
                case .index(let index): .int(index)
                // Never in a computed patch; written so that reading it back is refused.
                case .id(let id): .array([.string("id"), id])
                case .wildcard: .array([])
                }
            })
    }

    private static func operation(from json: JSONValue) throws(JSONValue.Failure) -> Operation {
        guard case .array(let parts) = json, case .string(let tag)? = parts.first else {
            throw JSONValue.Failure(reason: "expected an array starting with a tag, found \(json.kindDescription)")
        }
        // A switch, not a dictionary: a literal dictionary was built for every operation read,
        // 5 % of `find`.
        let arity: Int
        switch tag {
        case "s": arity = 3
        case "r": arity = 2
        case "p": arity = 5
        default: throw JSONValue.Failure(reason: "unknown operation tag \(JSONParser.quoted(tag))")
        }
        guard parts.count == arity else {
            throw JSONValue.Failure(reason: "expected \(arity) elements in a \(JSONParser.quoted(tag)) operation, found \(parts.count)")
        }
        switch tag {
        case "s":
            return .set(try path(from: parts[1]), parts[2])
        case "r":
            return .remove(try path(from: parts[1]))
        default:
            guard case .int(let start) = parts[2], case .int(let end) = parts[3], 0 <= start, start <= end else {
                throw JSONValue.Failure(reason: "expected a splice range of two integers 0 <= start <= end")
            }
            guard case .array(let values) = parts[4] else {
                throw JSONValue.Failure(reason: "expected an array of values to splice in, found \(parts[4].kindDescription)")
            }
            return .splice(try path(from: parts[1]), range: start..<end, with: values)
        }
    }

    private static func path(from json: JSONValue) throws(JSONValue.Failure) -> JSONPath {
        guard case .array(let parts) = json else {
            throw JSONValue.Failure(reason: "expected a path array, found \(json.kindDescription)")
        }
        var components: [JSONPath.Component] = []
        components.reserveCapacity(parts.count)
        for part in parts {
            switch part {
            case .string(let key): components.append(.key(key))
            case .int(let index) where index >= 0: components.append(.index(index))
            default: throw JSONValue.Failure(reason: "expected path components to be strings or non-negative integers, found \(part)")
            }
        }
        return JSONPath(components)
    }
}

extension JSONPatch {
    /// Appends the canonical text of ``json`` to `buffer` without building it: the form a
    /// recorder stores at every step, where building the tree of each operation and its path
    /// first cost more than writing it.
    public func canonicalBytes(into buffer: inout [UInt8]) {
        var writer = JSONCanonicalWriter()
        writer.patch(self)
        writer.append(to: &buffer)
    }
}

extension JSONCanonicalWriter {
    /// Writes the canonical text of `patch`'s ``JSONPatch/json``, without building it.
    public mutating func patch(_ patch: JSONPatch) {
        byte(UInt8(ascii: "["))
        for (index, operation) in patch.operations.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            self.operation(operation) { _ in false }
        }
        byte(UInt8(ascii: "]"))
    }

    /// Writes one operation, its path after the components `prefix` writes (returning whether
    /// it wrote any): an operation of a value inside the one diffed.
    mutating func operation(_ operation: JSONPatch.Operation, prefix: (inout JSONCanonicalWriter) -> Bool) {
        switch operation {
        case .set(let path, let value):
            tag("s", path, prefix)
            byte(UInt8(ascii: ","))
            self.value(value)
        case .remove(let path):
            tag("r", path, prefix)
        case .splice(let path, let range, let values):
            tag("p", path, prefix)
            byte(UInt8(ascii: ","))
            decimal(range.lowerBound)
            byte(UInt8(ascii: ","))
            decimal(range.upperBound)
            text(",[")
            for (offset, value) in values.enumerated() {
                if offset > 0 { byte(UInt8(ascii: ",")) }
                self.value(value)
            }
            byte(UInt8(ascii: "]"))
        }
        byte(UInt8(ascii: "]"))
    }

    /// `["tag",path` of an operation, its closing bracket left to the caller.
    private mutating func tag(_ tag: StaticString, _ path: JSONPath, _ prefix: (inout JSONCanonicalWriter) -> Bool) {
        text("[\"")
        text(tag)
        text("\",[")
        var wrote = prefix(&self)
        for component in path.components {
            if wrote { byte(UInt8(ascii: ",")) }
            wrote = true
            switch component {
            case .key(let key): quoted(key)
            case .index(let position): decimal(position)
            case .id(let id): value(.array([.string("id"), id]))
            case .wildcard: text("[]")
            }
        }
        byte(UInt8(ascii: "]"))
    }
}
