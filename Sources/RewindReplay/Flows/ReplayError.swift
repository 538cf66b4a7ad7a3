/// Why a recorded value cannot be replayed.
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
