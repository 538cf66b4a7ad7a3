import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, caught for a command that ends what it started before it exits
/// (`demo --live` ends its sessions, so that they replay whole).
@MainActor
final class Interruption {
    private var sources: [any DispatchSourceSignal] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Whether a signal came.
    private(set) var happened = false

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.signalled() }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Returns once a signal has come.
    func wait() async {
        guard !happened else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func signalled() {
        happened = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
