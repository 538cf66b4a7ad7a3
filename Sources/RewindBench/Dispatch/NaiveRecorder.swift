import Foundation
import RewindCore

/// The naive baseline: at every step, the full state as JSON (Foundation's encoder, sorted
/// keys), appended to a file synchronously on the dispatch path.
@MainActor
final class NaiveRecorder<State: RecordableState, Action: RecordableAction>: StoreMiddleware {
    private let file: FileHandle
    private let encoder = JSONEncoder()
    private let newline = Data("\n".utf8)

    init(path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        encoder.outputFormatting = .sortedKeys
    }

    func storeDidStart(initialState: State) {
        write(initialState)
    }

    func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        write(state)
    }

    private func write(_ state: State) {
        guard let data = try? encoder.encode(state) else { return }
        file.write(data)
        file.write(newline)
    }

    func close() throws {
        try file.close()
    }
}
