import Foundation

extension UnsafeBufferPointer {
    /// Whether the element at `i` has the same bytes as `other`'s at `j`, read in place.
    ///
    /// For the values this module keeps (`JSONValue`, `String`), equal bytes mean the same case
    /// and payload: the same number, inline string or storage, so equal values. Unequal bytes
    /// may still be equal values, which the caller then decides. Reading in place spares the
    /// retain and release of copying each out.
    @inline(__always)
    func hasSameBytes(at i: Int, as other: UnsafeBufferPointer<Element>, at j: Int) -> Bool {
        guard let first = baseAddress, let second = other.baseAddress else { return false }
        return memcmp(first + i, second + j, MemoryLayout<Element>.size) == 0
    }

    /// Whether both buffers have the same count and bytes: the same buffer, or elements that
    /// are each the same value in the sense of ``hasSameBytes(at:as:at:)``, told in one call.
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<Element>) -> Bool {
        guard count == other.count else { return false }
        guard let first = baseAddress, let second = other.baseAddress, first != second else { return true }
        return memcmp(first, second, count * MemoryLayout<Element>.stride) == 0
    }
}
