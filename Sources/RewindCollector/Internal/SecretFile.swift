#if Servers
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file of secrets beside the collector's store (its tokens' hashes, its share links'
/// key), mode 0600: changed under a lock, replaced whole. `what` names it in errors
/// ("token file"), `code` is their code (`tokens_unwritable`).
struct SecretFile {
    let path: String
    let what: String
    let code: String

    /// How these files are written: JSON, keys sorted, dates in seconds since 1970.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    /// Runs `body`, which reads the file and writes it again, holding `FILE.lock` (`flock`):
    /// a `create` and a `revoke` at once each read the file before the other wrote it, and the
    /// second write undid the first (a revocation lost). Readers need no lock: the file is
    /// replaced whole, by a rename.
    func withLock<T>(_ body: () throws(CollectorError) -> T) throws(CollectorError) -> T {
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            throw CollectorError(status: 500, code: code, "\(path).lock: cannot open the \(what)'s lock (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw CollectorError(status: 500, code: code, "\(path).lock: cannot lock the \(what) (\(String(cString: strerror(errno))))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Writes `data` whole to a new file (0600), synced, then moves it over the old one: a
    /// crash leaves the old file or the new, never half of one.
    func replace(with data: Data) throws(CollectorError) {
        let temporary = "\(path).\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else {
            throw CollectorError(status: 500, code: code, "\(path): cannot write the \(what) (\(String(cString: strerror(errno))))")
        }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CollectorError(status: 500, code: code, "\(path): cannot write the \(what)")
        }
        // The rename is durable only once the folder's entry is: a crash after it could
        // bring back the old file (a revoked token, a rotated key) with it.
        let folder = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY)
        guard folder >= 0 else { throw CollectorError(status: 500, code: code, "\(path): cannot sync the \(what)'s folder") }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw CollectorError(status: 500, code: code, "\(path): cannot sync the \(what)'s folder") }
    }
}
#endif
