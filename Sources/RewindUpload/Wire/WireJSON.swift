import Foundation

/// How the protocol's bodies are written: keys sorted, so that the same value is the same bytes.
package enum WireJSON {
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
