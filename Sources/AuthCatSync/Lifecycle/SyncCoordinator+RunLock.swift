import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncCoordinator {
    /// The one lock that makes every sync of a vault take its turn: an exclusive
    /// `flock` on `sync-run.lock` in the vault folder, so that two syncs (a
    /// background push and `sync now`, say) never run at once and never write the
    /// same batch number.
    ///
    /// It is taken once per job, by whoever owns the job (the sync service, or
    /// `SyncCoordinator` for a queued push and each of the watch's syncs), and
    /// everything below it (the engine, setup) runs inside that turn without
    /// taking it again. It is never taken twice by one job: a second `flock` on
    /// another open file description of the same file would wait for the first
    /// forever, also within one process.
    enum RunLock {
        static let fileName = "sync-run.lock"

        /// Runs `body` holding the run lock of the vault at `location`, waiting
        /// for it if another holder has it.
        ///
        /// - Parameters:
        ///   - whenBusy: called once, before waiting, when another holder has it.
        ///   - removeFileAfterFailure: asked when `body` throws; true removes the
        ///     lock file before the lock is released (`SyncCoordinator.LockFile.removeFile`).
        /// - Throws: `SecureFileError` when the file cannot be opened or the
        ///   system refuses the lock, and whatever `body` throws.
        static func holding<Result>(
            in location: VaultLocation, whenBusy: () -> Void = {},
            removeFileAfterFailure: () -> Bool = { false },
            _ body: () async throws -> Result
        ) async throws -> Result {
            let file = try SyncCoordinator.LockFile(url(in: location))
            if !file.tryLock() {
                whenBusy()
                try await file.lock()
            }
            defer { file.unlock() }
            do {
                return try await body()
            } catch {
                if removeFileAfterFailure() { file.removeFile() }
                throw error
            }
        }

        static func url(in location: VaultLocation) -> URL {
            location.folder.appendingPathComponent(fileName)
        }
    }
}
