/// A growable buffer of trivial values, allocated by hand: appends and writes through a
/// pointer, without the uniqueness and bounds checks of `Array`.
///
/// `JSONStateWriter` keeps its tape in one: every value written appended a node to an array
/// and wrote to its parent's, each a uniqueness check and a bounds check, about a twentieth of
/// recording a login step (callgrind). Indices are checked in debug builds only; the writer
/// makes every one it uses. Elements are never deinitialized: only trivial types (no
/// references; checked when a buffer is made) may be kept.
struct TrivialBuffer<Element>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        precondition(_isPOD(Element.self), "a TrivialBuffer holds trivial values only")
        self.capacity = Swift.max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be below ``count``.
    @inline(__always)
    func pointer(at index: Int) -> UnsafeMutablePointer<Element> {
        assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        return base + index
    }

    /// The last element; the buffer must not be empty.
    @inline(__always)
    var last: Element {
        pointer(at: count - 1).pointee
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the last element; the buffer must not be empty (checked: a
    /// container closed that was never opened stops here, not on memory before the buffer).
    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast from an empty buffer")
        let element = last
        count -= 1
        return element
    }

    /// Forgets every element, keeping the allocation.
    mutating func removeAll() {
        count = 0
    }

    /// The elements, valid during `body`.
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.initialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
