import ArgumentParser
import Foundation

/// A server's `--listen HOST:PORT` (`serve`, `live`): a host name or address, IPv6 in
/// brackets or not, and a port from 0 (a free one) to 65535.
enum ListenAddress {
    static func parse(_ text: String, example: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port),
            colon > text.startIndex
        else { throw ValidationError("--listen takes HOST:PORT, like \(example)") }
        return (String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }
}
