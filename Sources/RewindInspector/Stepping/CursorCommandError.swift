/// Why a line is not a ``CursorCommand``, in one line, such as
/// `unknown command 'nxt'; type help for the commands`.
public struct CursorCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
