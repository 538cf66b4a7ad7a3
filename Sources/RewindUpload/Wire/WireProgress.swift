import Foundation
import RewindLog

/// What a store holds of a session, as the answer to an upload and to `GET
/// /v1/sessions/{id}` say it: `session` (the collector's answers name it, the live
/// inspector's do not), beside ``ReceivedBlocks``'s keys.
package struct WireProgress: Codable, Sendable, Equatable {
    package var session: UUID?
    package var received: ReceivedBlocks

    package init(session: UUID?, received: ReceivedBlocks) {
        self.session = session
        self.received = received
    }

    private enum CodingKeys: String, CodingKey { case session }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decodeIfPresent(String.self, forKey: .session).flatMap(UUID.init(uuidString:))
        received = try ReceivedBlocks(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(session?.uuidString, forKey: .session)
        try received.encode(to: encoder)
    }
}
