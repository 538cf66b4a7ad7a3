import Foundation

/// A file that grows by one line for each acknowledged request: `tools/load-test` reads its
/// length to kill a collector when a share of the upload is done rather than at a second,
/// which a slow machine reaches with more or less of the upload behind it.
actor ProgressFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
    }

    func acknowledged() throws {
        try handle.write(contentsOf: Data("1\n".utf8))
    }
}
