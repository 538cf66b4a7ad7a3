import Foundation

/// The `Encoder` behind `JSONValueEncoder`: one per value that encodes itself, building its
/// part of the tree directly.
///
/// An encoder is also its own single-value container. Keyed and unkeyed containers write into
/// its `keys`/`values` arrays; nested containers and super-encoders are child encoders whose
/// results are only known later, so they leave a placeholder and are collected in `takeValue()`.
final class TreeEncoder: Encoder, CodingPathTracking {
    enum Storage {
        case empty
        case single(JSONValue)
        case object
        case array
    }

    let parentNode: CodingPathNode?
    let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any]
    /// Set when encoding with a memo: arrays of equatable elements reuse unchanged elements.
    let memo: JSONEncodingMemo?
    /// Whether values that build their own trees do so (`JSONValueEncoder.prefersTreeCoding`).
    let prefersTreeCoding: Bool
    // Every member encoded touches these, and the runtime's exclusivity checks on class
    // properties took a tenth of encoding time. Accesses cannot overlap: an encoder is used by
    // one encoding on one thread, and nested values are encoded by child encoders before the
    // append that stores their result begins.
    @exclusivity(unchecked) var cachedNode: CodingPathNode?
    @exclusivity(unchecked) var storage = Storage.empty
    @exclusivity(unchecked) var keys: [String] = []
    @exclusivity(unchecked) var values: [JSONValue] = []
    /// Children whose results replace the placeholders at these positions of `values`.
    @exclusivity(unchecked) var pending: [(index: Int, encoder: TreeEncoder)] = []

    init(
        parentNode: CodingPathNode?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any], memo: JSONEncodingMemo? = nil,
        prefersTreeCoding: Bool = true
    ) {
        self.parentNode = parentNode
        self.key = key
        self.userInfo = userInfo
        self.memo = memo
        self.prefersTreeCoding = prefersTreeCoding
    }

    /// What was encoded, or `nil` if nothing was.
    func takeValue() -> JSONValue? {
        switch storage {
        case .empty:
            return .none
        case .single(let value):
            return value
        case .object:
            resolvePending()
            // Sorted in place: the arrays are moved out first so that nothing else holds them.
            var keys = self.keys
            var values = self.values
            self.keys = []
            self.values = []
            JSONObject.sort(keys: &keys, values: &values)
            return .object(JSONObject(sortedKeys: keys, values: values))
        case .array:
            resolvePending()
            return .array(values)
        }
    }

    private func resolvePending() {
        for (index, child) in pending {
            values[index] = child.takeValue() ?? .object(JSONObject())
        }
        pending = []
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A class and its superclass may both ask for the container; they share one object.
        if case .object = storage {
        } else {
            storage = .object
            keys = []
            values = []
            pending = []
            // Most objects are small structs; starting with room for a few members saves
            // the first regrowths, which were a large share of encoding time.
            keys.reserveCapacity(4)
            values.reserveCapacity(4)
        }
        return KeyedEncodingContainer(TreeKeyedEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage {
        } else {
            storage = .array
            keys = []
            values = []
            pending = []
        }
        return TreeUnkeyedEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// A child encoder for a nested container or super-encoder, filled in after this call returns.
    func deferredChild(key: any CodingKey, objectKey: String?) -> TreeEncoder {
        let child = TreeEncoder(parentNode: pathNode, key: key, userInfo: userInfo, memo: memo, prefersTreeCoding: prefersTreeCoding)
        pending.append((values.count, child))
        if let objectKey { keys.append(objectKey) }
        values.append(.null)
        return child
    }
}

extension TreeEncoder: SingleValueEncodingContainer {
    func encodeNil() throws { storage = .single(.null) }
    func encode(_ value: Bool) throws { storage = .single(.bool(value)) }
    func encode(_ value: String) throws { storage = .single(.string(value)) }
    func encode(_ value: Double) throws { storage = .single(try box(value, at: nil)) }
    func encode(_ value: Float) throws { storage = .single(try box(value, at: nil)) }
    func encode(_ value: Int) throws { storage = .single(.int(value)) }
    func encode(_ value: Int8) throws { storage = .single(.int(Int(value))) }
    func encode(_ value: Int16) throws { storage = .single(.int(Int(value))) }
    func encode(_ value: Int32) throws { storage = .single(.int(Int(value))) }
    func encode(_ value: Int64) throws { storage = .single(try box(value, at: nil)) }
    func encode(_ value: UInt) throws { storage = .single(try box(value, at: nil)) }
    func encode(_ value: UInt8) throws { storage = .single(.int(Int(value))) }
    func encode(_ value: UInt16) throws { storage = .single(.int(Int(value))) }
    func encode(_ value: UInt32) throws { storage = .single(try box(value, at: nil)) }
    func encode(_ value: UInt64) throws { storage = .single(try box(value, at: nil)) }
    func encode<T: Encodable>(_ value: T) throws { storage = .single(try box(value, at: nil)) }
}
