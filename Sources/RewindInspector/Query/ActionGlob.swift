#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell-style pattern over action names, like `didTap*` or `*Response`.
public struct ActionGlob: Sendable, Equatable, CustomStringConvertible {
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern
    }

    /// Whether `name` matches: `*` any run of characters, `?` one, `[…]` a set.
    public func matches(_ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }

    public var description: String { pattern }
}
