import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

/// The one lock that makes every sync of a vault take its turn: an exclusive
/// `flock` on `sync-run.lock` in the vault folder, so that two syncs (a
/// background push and `sync now`, say) never run at once and never write the
/// same batch number.
///
/// Whoever syncs holds it: the engine's operations (`sync`, `compact`,
/// `disable`, `SyncSetup.enable`) take it themselves, and `SyncCoordinator`
/// takes it around them when one turn must cover more (a queued push from
/// before it leaves the queue, `sync enable`'s setup and first sync). A task
/// that holds it runs nested holders at once: a second `flock` on another
/// open file description of the same file would wait for the first forever,
/// also within one process. Child tasks share the turn (a task-local value)
/// while it lasts; a task that outlives it takes the lock again, and detached
/// tasks always do.
enum SyncRunLock {
    static let fileName = "sync-run.lock"

    /// One holder's turn, over once it released the lock.
    private final class Turn: Sendable {
        let file: FileIdentity
        private let lasts = Mutex(true)

        init(file: FileIdentity) {
            self.file = file
        }

        var isOn: Bool { lasts.withLock { $0 } }

        func end() {
            lasts.withLock { $0 = false }
        }
    }

    /// The turns of the current task and those that started it.
    @TaskLocal private static var turns: [Turn] = []

    /// Runs `body` holding the run lock of the vault at `location`, waiting
    /// for it if another holder has it.
    ///
    /// - Parameters:
    ///   - whenBusy: called once, before waiting, when another holder has it.
    ///   - removeFileAfterFailure: asked when `body` throws; true removes the
    ///     lock file before the lock is released (`SyncLockFile.removeFile`).
    /// - Throws: `SecureFileError` when the file cannot be opened or the
    ///   system refuses the lock, and whatever `body` throws.
    static func holding<Result>(
        in location: VaultLocation, whenBusy: () -> Void = {},
        removeFileAfterFailure: () -> Bool = { false },
        _ body: () async throws -> Result
    ) async throws -> Result {
        let file = try SyncLockFile(url(in: location))
        if let identity = file.identity, turns.contains(where: { $0.file == identity && $0.isOn }) {
            return try await body()
        }
        if !file.tryLock() {
            whenBusy()
            try await file.lock()
        }
        // The file now at the name, which `lock` may have opened again.
        let turn = file.identity.map(Turn.init)
        defer {
            turn?.end()
            file.unlock()
        }
        do {
            return try await $turns.withValue(turns + [turn].compactMap { $0 }) { try await body() }
        } catch {
            if removeFileAfterFailure() { file.removeFile() }
            throw error
        }
    }

    static func url(in location: VaultLocation) -> URL {
        location.folder.appendingPathComponent(fileName)
    }
}
