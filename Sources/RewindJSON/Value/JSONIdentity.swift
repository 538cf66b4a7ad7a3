/// How elements of an array are told apart by identity: an element that is an object with a
/// scalar `id` member is that id.
///
/// An array is *identified* when every element has an id and no two share one; diffs match
/// the elements of such arrays by id and name them `[id=…]`, and `[*]` over one lists its
/// elements by id, so that a path keeps naming the same element when others come and go.
public enum JSONIdentity {
    /// The scalar `id` member of an object element, if it has one.
    public static func id(of element: JSONValue) -> JSONValue? {
        guard case .object(let object) = element, let id = object["id"] else { return .none }
        switch id {
        case .array, .object: return .none
        case .null, .bool, .int, .double, .string: return id
        }
    }

    /// The ids of the elements in order, when the array is identified: every element has an id
    /// and each id is unique (so an empty array is, trivially).
    public static func ids(of elements: [JSONValue]) -> [JSONValue]? {
        var ids: [JSONValue] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard let id = id(of: element) else { return nil }
            ids.append(id)
        }
        return areUnique(ids) ? ids : nil
    }

    /// Whether no two ids are equal. Integer ids, the usual kind, go through a set of `Int`,
    /// several times faster than one of `JSONValue`: it decides how a diff names elements each
    /// time an element of a large list changes.
    static func areUnique(_ ids: [JSONValue]) -> Bool {
        var integers = Set<Int>(minimumCapacity: ids.count)
        var others: Set<JSONValue> = []
        for id in ids {
            if case .int(let integer) = id {
                guard integers.insert(integer).inserted else { return false }
            } else {
                guard others.insert(id).inserted else { return false }
            }
        }
        return true
    }

    /// The index of the only element whose id is `id`; nil when none or several have it.
    static func index(of id: JSONValue, in elements: [JSONValue]) -> Int? {
        var found: Int?
        for (index, element) in elements.enumerated() where Self.id(of: element) == id {
            guard found == nil else { return nil }
            found = index
        }
        return found
    }
}
