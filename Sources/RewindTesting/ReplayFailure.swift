/// Why a recording does not replay: the same readable report `rewind replay` prints.
public struct ReplayFailure: Error, CustomStringConvertible {
    public let description: String
}
