/// A share link, as `POST /v1/sessions/{id}/link` and the sessions page's share answer it:
/// `{"link", "expires_at"}`, the expiry in seconds since 1970, as text.
package struct WireLink: Codable, Sendable, Equatable {
    package var link: String
    package var expiresAt: String

    package init(link: String, expiresAt: String) {
        self.link = link
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case link
        case expiresAt = "expires_at"
    }
}
