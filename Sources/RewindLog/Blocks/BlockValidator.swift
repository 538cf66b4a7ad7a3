/// Checks that a block reads as its row says: it inflates to its size and holds one record
/// for each of its steps. What a collector checks before it acknowledges a block, so that a
/// block a client made up is refused then rather than found damaged by a reader later.
final class BlockValidator {
    private let inflater = BlockInflater()
    private let unescaped = UnescapedStrings()

    /// Why `block` does not read as its row says, or nil.
    func problem(with block: StoredSessionCopy.Block) -> String? {
        // (A closure with a typed throw here crashes Swift 6.3.1's IR generation.)
        let failure = block.data.withUnsafeBytes { data -> String? in
            do {
                try inflater.inflate(data, size: block.size)
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure { return failure }
        let steps = block.lastStep - block.firstStep + 1
        return inflater.bytes.withUnsafeBytes { bytes -> String? in
            unescaped.reset(capacity: bytes.count)
            do {
                var scanner = try BlockRecordScanner(bytes, session: 0, firstStep: block.firstStep, unescaped: unescaped)
                var count = 0
                while count <= steps, try scanner.nextAction() != nil { count += 1 }
                return count == steps ? nil : "it holds \(count > steps ? "more than \(steps)" : "\(count)") steps, not \(steps)"
            } catch {
                return "it cannot be read: \(error)"
            }
        }
    }
}
