#if Servers
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// HTTP/1.1, over TLS when `tls` names a certificate chain and its key (PEM files).
    func server(tls: (certificate: String, key: String)?) throws -> HTTPServerBuilder {
        // Without an idle timeout a client that sent half a header held its connection (and a
        // file descriptor) for ever: 300 of them were all open 65 s later.
        let idle = Int64(max(0.001, min(limits.idleSeconds, 86_400)) * 1e9)
        let http: HTTPServerBuilder = .http1(configuration: .init(idleTimeout: .nanoseconds(idle)))
        guard let tls else { return http }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate)
            let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
            return try .tls(http, tlsConfiguration: .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
        } catch {
            throw CollectorError(status: 500, code: "tls", "cannot read the TLS certificate \(tls.certificate) or its key \(tls.key): \(error)")
        }
    }
}
#endif
