import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a server of the bench's on loopback: the live page's watcher and
/// the collector's half-open connections, which URLSession cannot hold.
enum LoopbackSocket {
    /// A socket connected to 127.0.0.1:`port`, whose reads wait `receiveTimeout` seconds at
    /// most when given; `server` names the server in the error.
    static func connect(port: UInt16, receiveTimeout: Int? = nil, server: String) throws -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw BenchmarkError("no socket: error \(errno)") }
        if let receiveTimeout {
            var wait = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(socket)
            throw BenchmarkError("cannot connect to \(server) on port \(port): error \(errno)")
        }
        return socket
    }
}
