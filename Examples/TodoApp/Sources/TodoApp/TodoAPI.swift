import RewindCore

/// The sync service: a fake that answers at once, its revision counting the calls, so that
/// scripted sessions record the same answers on every run.
public actor TodoAPI {
    private var revision = 0
    private let failingCalls: Set<Int>

    /// - Parameter failingCalls: the calls (1 for the first) that fail, as a flaky network would.
    public init(failingCalls: Set<Int> = []) {
        self.failingCalls = failingCalls
    }

    /// Uploads the items; the new revision, or why it failed.
    public func sync(_ items: [TodoItem], token: Secret) -> TodoAction.SyncResult {
        revision += 1
        if failingCalls.contains(revision) { return .failure(message: "The network is down.") }
        return .success(revision: revision)
    }
}
