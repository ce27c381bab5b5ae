import AuthCatCore
import Foundation

/// An exclusive lock on `sync.lock` in the vault folder, so two authcat
/// processes (a command's background push and `sync now`, say) never sync the
/// same vault at once and never write the same batch number.
final class SyncLock {
    static let fileName = "sync.lock"
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Waits for the lock; it is released when the returned object goes away.
    static func acquire(in location: VaultLocation) throws -> SyncLock {
        let path = location.folder.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
        guard descriptor >= 0 else {
            throw SyncError(.other, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw SyncError.busy()
            }
        }
        return SyncLock(descriptor: descriptor)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
