import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// Where `--recovery-key-file` writes the recovery key, by the rule every
/// output path follows (`OutputDestination`), except that an existing
/// regular file is never replaced: it may hold the key of another vault.
/// Checked before the remote vault is created, so that a bad path fails
/// before anything is set up.
struct SyncRecoveryKeyFile {
    let destination: OutputDestination

    var path: String { destination.path }

    /// - Parameter standard: the invocation's standard descriptors, for a path that names one.
    static func create(_ path: String, standard: StandardDescriptors) throws -> SyncRecoveryKeyFile {
        do {
            return SyncRecoveryKeyFile(
                destination: try OutputDestination(
                    path, replacing: false, standard: standard))
        } catch OutputDestinationError.exists {
            throw SyncCommandError.recoveryKeyFileExists(path)
        }
    }

    func write(_ recoveryKey: String) throws {
        var bytes = Data((recoveryKey + "\n").utf8)
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        do {
            try destination.write(bytes)
        } catch let error as OutputDestinationError {
            if case .exists = error { throw SyncCommandError.recoveryKeyFileExists(path) }
            throw SyncCommandError.cannotWriteRecoveryKey(path, reason: error.reason)
        }
    }
}
