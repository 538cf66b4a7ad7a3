/// A program that could not be started, and why.
public struct SpawnedProcessError: Error, CustomStringConvertible {
    public let executable: String
    public let message: String
    public var description: String { "cannot run \(executable): \(message)" }
}
