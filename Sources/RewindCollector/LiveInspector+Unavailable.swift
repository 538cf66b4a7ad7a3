#if !Servers
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension LiveInspector {
    /// A build without the `Servers` trait has no server: this says so.
    public func run(host: String, port: Int, accessLog: AccessLog? = nil, onListening: @escaping @Sendable (Int) -> Void) async throws {
        throw CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the live inspector: build it with the Servers trait (swift run --traits Servers rewind live)")
    }
}
#endif
