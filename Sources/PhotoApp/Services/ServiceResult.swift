import RewindCodable

/// What a service call returned: a value, or a failure message for the user.
@RewindCodable
public enum ServiceResult<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    case success(Value)
    case failure(String)
}
