#if TeamStore
/// Lets one task at a time through, in the order they came: what keeps two transactions off
/// the one connection a ``TeamStore`` holds (PostgresNIO would interleave their statements).
actor AsyncGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every task that came before it is through.
    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let result = try await body()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            // The gate stays busy: it passes straight to the next in line.
            waiting.removeFirst().resume()
        }
    }
}
#endif
