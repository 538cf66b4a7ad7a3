#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import RewindRendering
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// A protocol's answer: `value` as JSON, its keys sorted.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try WireJSON.encode(value))))
    }

    /// A page of one paragraph, for a person in a browser: nothing of the request in it.
    static func page(status: HTTPResponse.Status, title: String, text: String) -> Response {
        let escaped = HTMLText.escaped
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title>
            <meta name="viewport" content="width=device-width"><style>body{font:16px/1.5 system-ui,sans-serif;margin:3em auto;max-width:36em;padding:0 1em}</style>
            </head><body><h1>\(escaped(title))</h1><p id="reason">\(escaped(text))</p></body></html>
            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The request's host as the client named it, when it is a host name or address and a port.
    static func host(of request: Request) -> String {
        let named = request.head.authority ?? ""
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        return !named.isEmpty && named.count <= 255 && named.allSatisfy(allowed.contains) ? named : "HOST"
    }
}
#endif
