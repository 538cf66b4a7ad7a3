import Foundation

/// How an uploader waits between tries: exponential backoff with full jitter (a random wait
/// between 0 and `base` × 2^attempt, at most `cap`), or what the collector's `Retry-After` asks
/// when it asks for longer. Jitter keeps a fleet of phones that lost the network together from
/// coming back together.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries of one request, the first included.
    public var attempts: Int
    public var base: Double
    public var cap: Double
    /// No `Retry-After` is waited past this: a collector cannot park a client for an hour.
    public var longestRetryAfter: Double

    public init(attempts: Int = 8, base: Double = 0.25, cap: Double = 30, longestRetryAfter: Double = 120) {
        self.attempts = attempts
        self.base = base
        self.cap = cap
        self.longestRetryAfter = longestRetryAfter
    }

    /// Seconds to wait after the failed try number `attempt` (from 0).
    public func delay(afterAttempt attempt: Int, retryAfter: Double?, using random: inout some RandomNumberGenerator) -> Double {
        let ceiling = min(cap, base * pow(2, Double(min(attempt, 30))))
        let jittered = Double.random(in: 0...ceiling, using: &random)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, longestRetryAfter))
    }
}
