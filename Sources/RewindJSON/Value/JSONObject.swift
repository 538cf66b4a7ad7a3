/// A JSON object whose members are always sorted by key in UTF-8 byte order, with unique keys.
///
/// Keeping the order at all times makes iteration and serialization canonical with no sorting
/// at write time, and lets lookup and insertion use binary search. `keys` and `values` are parallel
/// arrays: the value of `keys[i]` is `values[i]`.
public struct JSONObject: Sendable {
    /// The keys, strictly increasing in UTF-8 byte order.
    public internal(set) var keys: [String]
    /// The values, in the order of their keys.
    public internal(set) var values: [JSONValue]

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    /// An object with the given members in any order; the last of duplicate keys wins.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init(unsortedKeys: pairs.map(\.0), values: pairs.map(\.1))
    }

    /// Sorts parallel arrays into an object; the last of duplicate keys wins.
    init(unsortedKeys keys: [String], values: [JSONValue]) {
        var keys = keys
        var values = values
        Self.sort(keys: &keys, values: &values)
        self.init(sortedKeys: keys, values: values)
    }

    /// Sorts parallel arrays by key and drops all but the last of duplicate keys.
    ///
    /// Objects encoded from structs are small and arrive in declaration order, so they are
    /// insertion-sorted in place, which allocates nothing; large ones sort a permutation.
    static func sort(keys: inout [String], values: inout [JSONValue]) {
        if isStrictlyIncreasing(keys) { return }
        guard keys.count > 16 else {
            insertionSort(keys: &keys, values: &values)
            return
        }
        // Ties broken by position, so that among duplicates the last one is kept below.
        let order = keys.indices.sorted { i, j in
            let order = UTF8Bytes.compare(keys[i], keys[j])
            return order != 0 ? order < 0 : i < j
        }
        var sortedKeys: [String] = []
        var sortedValues: [JSONValue] = []
        sortedKeys.reserveCapacity(keys.count)
        sortedValues.reserveCapacity(keys.count)
        for i in order {
            if let last = sortedKeys.last, UTF8Bytes.equal(last, keys[i]) {
                sortedValues[sortedValues.count - 1] = values[i]
            } else {
                sortedKeys.append(keys[i])
                sortedValues.append(values[i])
            }
        }
        keys = sortedKeys
        values = sortedValues
    }

    /// A stable insertion sort that then keeps the last of each run of equal keys.
    private static func insertionSort(keys: inout [String], values: inout [JSONValue]) {
        var hasDuplicates = false
        for i in 1..<keys.count {
            var j = i
            while j > 0 {
                let order = UTF8Bytes.compare(keys[j - 1], keys[j])
                hasDuplicates = hasDuplicates || order == 0
                guard order > 0 else { break }
                keys.swapAt(j - 1, j)
                values.swapAt(j - 1, j)
                j -= 1
            }
        }
        guard hasDuplicates else { return }
        var kept = 0
        for i in keys.indices {
            if kept > 0, UTF8Bytes.equal(keys[kept - 1], keys[i]) {
                values.swapAt(kept - 1, i)
            } else {
                keys.swapAt(kept, i)
                values.swapAt(kept, i)
                kept += 1
            }
        }
        keys.removeSubrange(kept...)
        values.removeSubrange(kept...)
    }

    /// Adopts arrays that the caller guarantees are sorted with unique keys.
    init(sortedKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
    }

    static func isStrictlyIncreasing(_ keys: [String]) -> Bool {
        // Through the buffer, the keys are borrowed rather than retained and released.
        keys.withUnsafeBufferPointer { keys in
            keys.indices.dropFirst().allSatisfy { UTF8Bytes.compare(keys[$0 - 1], keys[$0]) < 0 }
        }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// Where `key` is, or where it would be inserted to keep the keys sorted.
    func position(of key: String) -> (index: Int, found: Bool) {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            let order = UTF8Bytes.compare(keys[middle], key)
            if order == 0 { return (middle, true) }
            if order < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return (low, false)
    }

    /// The position of `key`, if present.
    ///
    /// Small objects, the usual kind, are scanned: comparing lengths first rules out most keys
    /// without looking at their bytes, which beats the byte comparisons of a binary search.
    func index(of key: String) -> Int? {
        guard keys.count > 8 else {
            return keys.firstIndex { UTF8Bytes.equal($0, key) }
        }
        let (index, found) = position(of: key)
        return found ? index : nil
    }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            // Not a ternary: with `JSONValue` being ExpressibleByNilLiteral, `nil` there would
            // become `.null` instead of a missing value.
            guard let index = index(of: key) else { return .none }
            return values[index]
        }
        set {
            let (index, found) = position(of: key)
            switch (found, newValue) {
            case (true, let value?):
                values[index] = value
            case (true, .none):
                keys.remove(at: index)
                values.remove(at: index)
            case (false, let value?):
                keys.insert(key, at: index)
                values.insert(value, at: index)
            case (false, .none):
                break
            }
        }
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        let keysEqual = lhs.keys.withUnsafeBufferPointer { a in
            rhs.keys.withUnsafeBufferPointer { b in
                a.baseAddress == b.baseAddress || a.indices.allSatisfy { UTF8Bytes.equal(a[$0], b[$0]) }
            }
        }
        return keysEqual && JSONValue.elementsEqual(lhs.values, rhs.values)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys.count)
        for key in keys {
            UTF8Bytes.hash(key, into: &hasher)
        }
        hasher.combine(values)
    }
}

extension JSONObject: Sequence {
    /// Iterates members in key order.
    public struct Iterator: IteratorProtocol {
        let object: JSONObject
        var index = 0

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard index < object.keys.count else { return nil }
            defer { index += 1 }
            return (object.keys[index], object.values[index])
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(object: self)
    }

    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Builds an object; the last of duplicate keys wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
