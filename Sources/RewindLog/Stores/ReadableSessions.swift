import Foundation

/// Sessions made readable by a ``SessionStore``: the path readers open, and the local copy
/// behind it when the store is elsewhere.
package struct ReadableSessions: Sendable {
    /// What readers open (``LogReader/init(path:verifying:)``): the log's path, or the
    /// store's name when a copy stands for it.
    package let path: String
    /// The folder holding the copy, removed by ``discard()``; nil for a log read in place.
    package let copyFolder: String?
    /// How many sessions the store holds, of which the copy holds those chosen; nil for a log
    /// read in place.
    package let sessionsHeld: Int?

    /// The log at `path`, read in place.
    package init(inPlace path: String) {
        self.path = path
        self.copyFolder = nil
        self.sessionsHeld = nil
    }

    /// The copy at `file` (in a folder of its own), read under `name`, of some of the
    /// `sessionsHeld` sessions of a store.
    package init(copy file: String, in folder: String, as name: String, of sessionsHeld: Int) {
        LocalCopies.register(file, as: name)
        self.path = name
        self.copyFolder = folder
        self.sessionsHeld = sessionsHeld
    }

    /// A new folder for a copy of sessions, `rewind-KIND-UUID` under the temporary folder,
    /// that only its user can read (0700): what a store elsewhere copies sessions into.
    package static func makeCopyFolder(_ kind: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-\(kind)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes the copy, if there is one: readers opened at ``path`` after this read it anew.
    package func discard() {
        guard let copyFolder else { return }
        LocalCopies.unregister(path)
        try? FileManager.default.removeItem(atPath: copyFolder)
    }
}
