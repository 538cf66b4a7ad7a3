/// Why a message of the live inspector's HTTP API does not read as one (docs/live.md).
public struct LiveWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line for a person.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
