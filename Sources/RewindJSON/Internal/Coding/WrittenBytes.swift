import Foundation

/// Which bytes of a value copying writes, and comparisons of values on those bytes alone.
///
/// Copying a value that is not trivial writes it field by field: the padding between fields,
/// and the payload bytes an enum's case leaves unused, keep what the memory held. Two copies of
/// one value may then differ in those bytes only. A mask of the written bytes, taken once from a
/// value, lets a later comparison skip them without copying anything.
///
/// Comparing on the first value's mask is exact: the bytes that tell an enum's case are written
/// whatever the case, so values that agree on the first one's written bytes have its case, so
/// the same written bytes, all equal.
enum WrittenBytes {
    /// Writes into `mask` (`MemoryLayout<Element>.size` bytes) 0xFF for each byte that copying
    /// `value` writes and 0 for the others: the bytes that differ between a copy into memory of
    /// zeros and one into memory of 0xFF are the ones the copy left alone.
    static func mask<Element>(of value: Element, into mask: UnsafeMutableRawPointer) {
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        withUnsafeTemporaryAllocation(byteCount: 2 * stride, alignment: MemoryLayout<Element>.alignment) { raw in
            guard let zeros = raw.baseAddress else { return }
            let ones = zeros + stride
            zeros.initializeMemory(as: UInt8.self, repeating: 0, count: stride)
            ones.initializeMemory(as: UInt8.self, repeating: 0xFF, count: stride)
            let first = zeros.initializeMemory(as: Element.self, repeating: value, count: 1)
            let second = ones.initializeMemory(as: Element.self, repeating: value, count: 1)
            for offset in 0..<size {
                let written = zeros.load(fromByteOffset: offset, as: UInt8.self) == ones.load(fromByteOffset: offset, as: UInt8.self)
                mask.storeBytes(of: written ? 0xFF : 0, toByteOffset: offset, as: UInt8.self)
            }
            first.deinitialize(count: 1)
            second.deinitialize(count: 1)
        }
    }

    /// Whether the `size` bytes at `a` and `b` agree wherever `mask` is set.
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, mask: UnsafeRawPointer, size: Int) -> Bool {
        var offset = 0
        while offset + 8 <= size {
            let difference = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if difference & mask.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0 { return false }
            offset += 8
        }
        while offset < size {
            let difference = a.load(fromByteOffset: offset, as: UInt8.self) ^ b.load(fromByteOffset: offset, as: UInt8.self)
            if difference & mask.load(fromByteOffset: offset, as: UInt8.self) != 0 { return false }
            offset += 1
        }
        return true
    }
}
