import AuthCatCore
import AuthCatEssentials
import Foundation

/// A vault that a command creates only to do its job (`sync enable` on a
/// machine without one), taken away again when the job fails, so that its
/// "nothing was changed" stays true: the entries the command added to the
/// vault's folder, and the folder if it made it.
///
/// Only while the vault holds no account, removed ones included: one added
/// meanwhile by another command keeps the vault. What was in the folder
/// before is never touched, whatever its name.
struct CreatedVault {
    let location: VaultLocation
    let folderExisted: Bool
    let entriesBefore: Set<String>

    /// What is there now, for a vault about to be created; nil when one exists already.
    static func noting(_ location: VaultLocation) -> CreatedVault? {
        guard !location.exists else { return nil }
        let entries = try? FileManager.default.contentsOfDirectory(atPath: location.folderPath)
        return CreatedVault(location: location, folderExisted: entries != nil, entriesBefore: Set(entries ?? []))
    }

    fileprivate func remove(_ vault: Vault) {
        guard (try? vault.accounts(includingDeleted: true).isEmpty) == true,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: location.folderPath)
        else { return }
        for entry in Set(entries).subtracting(entriesBefore) {
            try? FileManager.default.removeItem(at: location.folder.appendingPathComponent(entry))
        }
        if !folderExisted { _ = rmdir(location.folderPath) }
    }
}

extension CreatedVault? {
    /// Runs `body`; if it throws and the vault was made for it, the vault goes
    /// as `CreatedVault` says, then the error is rethrown.
    func undoingOnFailure<Result>(_ vault: Vault, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            self?.remove(vault)
            throw error
        }
    }
}
