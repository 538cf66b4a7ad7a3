/// The parser's stack of the members of the containers being parsed, whose top moves into the
/// array or object it ends up in.
///
/// With an `Array` as the stack, finishing a container copied its members out (retaining each)
/// and then removed them (releasing each, through `replaceSubrange`'s general path): 5 % of
/// replaying a login recording. Here the members are moved, neither retained nor released.
///
/// The count and the members are reached through pointers into `storage`, which stay valid
/// while this stack holds it: through the buffer's `header` property, each access was checked
/// for exclusivity at run time (4 % of that replay).
struct ParserStack<Element> {
    private var storage: Storage
    private var elements: UnsafeMutablePointer<Element>
    private var countPointer: UnsafeMutablePointer<Int>

    init(capacity: Int) {
        storage = Storage.make(capacity: capacity)
        elements = storage.withUnsafeMutablePointerToElements { $0 }
        countPointer = storage.withUnsafeMutablePointerToHeader { $0 }
    }

    var count: Int { countPointer.pointee }

    /// The top member, unless the stack holds no more than `start` members.
    func last(above start: Int) -> Element? {
        count > start ? elements[count - 1] : nil
    }

    mutating func append(_ element: consuming Element) {
        if count == storage.capacity {
            storage = storage.grown()
            elements = storage.withUnsafeMutablePointerToElements { $0 }
            countPointer = storage.withUnsafeMutablePointerToHeader { $0 }
        }
        (elements + count).initialize(to: element)
        countPointer.pointee += 1
    }

    /// Removes the members from `start` up and returns them, each passed through `transform`
    /// in order, which consumes it.
    mutating func removeAll<T>(from start: Int, _ transform: (consuming Element) -> T) -> [T] {
        precondition(start >= 0 && start <= count, "index out of the parser's stack")
        let taken = count - start
        // `reserveCapacity` and `append` rather than `init(unsafeUninitializedCapacity:)`,
        // which asked the runtime for the array's metadata at each call (18 % of a replay).
        var result: [T] = []
        result.reserveCapacity(taken)
        for offset in 0..<taken {
            result.append(transform((elements + start + offset).move()))
        }
        countPointer.pointee = start
        return result
    }

    /// Removes the members from `start` up and returns them in order.
    mutating func removeAll(from start: Int) -> [Element] {
        removeAll(from: start) { $0 }
    }

    /// One allocation: the count, then room for `capacity` members.
    final class Storage: ManagedBuffer<Int, Element> {
        static func make(capacity: Int) -> Storage {
            unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in 0 }, to: Storage.self)
        }

        /// A storage twice as large holding the members, which leave this one.
        func grown() -> Storage {
            let larger = Storage.make(capacity: Swift.max(capacity * 2, 8))
            withUnsafeMutablePointers { count, old in
                larger.withUnsafeMutablePointers { newCount, new in
                    new.moveInitialize(from: old, count: count.pointee)
                    newCount.pointee = count.pointee
                }
                count.pointee = 0
            }
            return larger
        }

        deinit {
            _ = withUnsafeMutablePointers { count, elements in elements.deinitialize(count: count.pointee) }
        }
    }
}
