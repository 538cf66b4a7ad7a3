#if Servers
import Logging
import ServiceLifecycle

/// How `rewind serve` and `rewind live` stop: SIGTERM or SIGINT shuts their services down,
/// the last first, and requests still open after ``grace`` are cancelled. Without the bound a
/// client that sends its upload's body slowly held `rewind serve` for as long as it liked (27 s
/// in one run, the body's 60 s at most); the uploader resumes where the server is once it is
/// back, and nothing is acknowledged before it is stored.
enum ServerShutdown {
    /// The time open requests get to finish once a signal came.
    static let grace: Duration = .seconds(1)

    /// Runs `services` until a signal, or the task's cancellation, ends them.
    static func run(_ services: [any Service], logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = grace
        try await ServiceGroup(configuration: configuration).run()
    }
}
#endif
