import Foundation
import RewindCore
import RewindLog

/// Does a ``FlightRecorder``'s reports and uploads, one at a time and in the order asked, off
/// the main actor: a report waits for the recorder to commit the steps before it, marks the
/// session in the log, then sends it.
final class FlightShipper: Sendable {
    private enum Request: Sendable {
        /// The unfinished sessions reported, and every reported session sent.
        case launch
        case report(SessionReport, flush: @Sendable () -> Void)
        case close(@Sendable () -> Void)
        case settle(CheckedContinuation<[FlightUpload], Never>)
    }

    /// Why a session left unfinished by an earlier run is reported.
    static let unfinishedReason = "the app did not close the session"

    private let requests: AsyncStream<Request>.Continuation
    private let worker: Task<Void, Never>

    init(sink: SQLiteSink, destination: any SessionDestination, session: UUID) throws {
        // Read before the new session begins: every session without an end is an earlier
        // run's (a crash, a kill), bar those this sink has open.
        let unfinished = try sink.unfinishedSessions()
        let (stream, requests) = AsyncStream.makeStream(of: Request.self)
        self.requests = requests
        let work = Work(sink: sink, destination: destination, session: session)
        worker = Task {
            var done: [FlightUpload] = []
            var closed = false
            for await request in stream {
                switch request {
                case .launch:
                    for (number, lastStep) in unfinished {
                        _ = try? sink.markReported(number, SessionReport(reason: Self.unfinishedReason, step: lastStep))
                    }
                    done += await work.sendReported()
                case let .report(report, flush):
                    // After the close, the session is sent whole; a report then changes nothing.
                    guard !closed else { continue }
                    await Work.blocking(flush)
                    if let upload = await work.report(report) { done.append(upload) }
                case let .close(close):
                    guard !closed else { continue }
                    closed = true
                    await Work.blocking(close)
                    if let upload = await work.sendOwnIfReported() { done.append(upload) }
                    await destination.close()
                case let .settle(continuation):
                    continuation.resume(returning: done)
                    done = []
                }
            }
        }
        requests.yield(.launch)
    }

    func report(_ report: SessionReport, flush: @escaping @Sendable () -> Void) {
        requests.yield(.report(report, flush: flush))
    }

    func close(_ close: @escaping @Sendable () -> Void) async {
        requests.yield(.close(close))
        _ = await settle()
    }

    func settle() async -> [FlightUpload] {
        await withCheckedContinuation { continuation in requests.yield(.settle(continuation)) }
    }

    deinit {
        requests.finish()
    }

    /// The work itself, on the worker task.
    private struct Work: Sendable {
        let sink: SQLiteSink
        let destination: any SessionDestination
        /// The flight recorder's own session.
        let session: UUID

        /// Marks the own session (if the log holds it: not when sampling left it out) and sends it.
        func report(_ report: SessionReport) async -> FlightUpload? {
            do {
                guard let number = try sink.session(identifiedBy: session) else { return nil }
                try sink.markReported(number, report)
            } catch {
                return FlightUpload(session: session, report: report, result: .failure(error))
            }
            return await send(session)
        }

        /// Sends the own session again if it was reported: at its close, the steps since.
        func sendOwnIfReported() async -> FlightUpload? {
            await send(session)
        }

        /// Sends every reported session of the log that the destination lacks.
        func sendReported() async -> [FlightUpload] {
            guard let sessions = try? LogReader(path: sink.path).sessions() else { return [] }
            var uploads: [FlightUpload] = []
            for id in sessions.filter({ $0.report != nil }).compactMap(\.id) {
                if let upload = await send(id) { uploads.append(upload) }
            }
            return uploads
        }

        /// Sends the session `id` if the log holds it reported.
        private func send(_ id: UUID) async -> FlightUpload? {
            let reader: LogReader
            let summary: SessionSummary
            do {
                reader = try LogReader(path: sink.path)
                guard let found = try reader.sessions().first(where: { $0.id == id }) else { return nil }
                summary = found
            } catch {
                return nil
            }
            guard let report = summary.report else { return nil }
            do {
                let outcome = try await Uploader(log: sink.path, to: destination).upload(summary, from: reader)
                // A collector gives a link to the report, for the bug the app files; none when
                // it cannot (an older collector), and the upload stands either way.
                let link = try? await (destination as? CollectorClient)?.link(for: id)
                return FlightUpload(session: id, report: report, result: .success(outcome), link: link)
            } catch {
                return FlightUpload(session: id, report: report, result: .failure(error))
            }
        }

        /// Runs `body`, which blocks (a recorder's flush waits for its writer's commit), on a
        /// thread of its own rather than one of the concurrency pool's.
        static func blocking(_ body: @escaping @Sendable () -> Void) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    body()
                    continuation.resume()
                }
            }
        }
    }
}
