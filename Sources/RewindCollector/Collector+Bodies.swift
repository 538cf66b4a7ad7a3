#if Servers
import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// A request's body, at most `limit` bytes (413 past it), arrived within `seconds` of the
    /// start (408 past it); a body cut short is 400 `incomplete_body`.
    static func body(of request: Request, limit: Int, seconds: Double) async throws -> [UInt8] {
        let seconds = max(0.001, min(seconds, 86_400))
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var body: [UInt8] = []
                do {
                    for try await buffer in request.body {
                        guard body.count + buffer.readableBytes <= limit else {
                            throw CollectorError(status: 413, code: "too_large", "the body is larger than \(limit) bytes")
                        }
                        body.append(contentsOf: buffer.readableBytesView)
                    }
                } catch let error as CollectorError {
                    throw error
                } catch {
                    // The connection closed, or went idle, before the body's end: the client's
                    // doing (a device losing its network), not the server's failure.
                    throw CollectorError(status: 400, code: "incomplete_body", "the body ended before its length: the connection closed or stalled")
                }
                return body
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let body = try await group.next() ?? nil else {
                throw CollectorError(status: 408, code: "body_timeout", "the body did not arrive within \(Self.seconds(seconds)) s")
            }
            return body
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
#endif
