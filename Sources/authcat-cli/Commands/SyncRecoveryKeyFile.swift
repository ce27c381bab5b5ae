import AuthCatCore
import Foundation

/// The new 0600 file `--recovery-key-file` names, created empty before the
/// remote vault is, so that a bad path fails before anything is set up.
struct SyncRecoveryKeyFile {
    let path: String

    /// Creates the file; refuses one that exists, so nothing is overwritten.
    static func create(_ path: String) throws -> SyncRecoveryKeyFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else {
            if errno == EEXIST { throw SyncCommandError.recoveryKeyFileExists(path) }
            throw SyncCommandError.cannotWriteRecoveryKey(path, reason: String(cString: strerror(errno)))
        }
        close(fd)
        return SyncRecoveryKeyFile(path: path)
    }

    func write(_ recoveryKey: String) throws {
        do {
            try SecureFile.writeAtomically(Data((recoveryKey + "\n").utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw SyncCommandError.cannotWriteRecoveryKey(path, reason: "\(error)")
        }
    }

    /// Removes the still-empty file after setup failed.
    func discard() {
        unlink(path)
    }
}
