import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncState {
    /// `sync-setup.json` in the vault folder: AuthCatSync's own record that sync
    /// was set up for this vault, kept apart from `sync.sqlite` so that losing
    /// or damaging that file is noticed instead of reading as "sync is off"
    /// (docs/FORMAT.md §5.7). The vault layer knows nothing of it.
    ///
    /// Written (atomically, 0600) whenever sync is set up, and by any look at a
    /// good state that finds it missing (setups made before it existed). Removed
    /// only by `sync disable` on a lost state, when the user chose to start over.
    struct SetupFile: Codable, Equatable {
        static let fileName = "sync-setup.json"
        static let currentFormat = "authcat-sync-setup"

        var format = currentFormat
        var version = 1
        /// The remote's display location (no credentials).
        var remote: String
        var remoteVault: String
        var device: String

        init(_ state: SyncStore.StateRecord) {
            remote = state.remoteURL
            remoteVault = state.remoteVaultID
            device = state.deviceID
        }

        static func url(in location: VaultLocation) -> URL {
            location.folder.appendingPathComponent(fileName)
        }

        /// Whether the file is there, whatever it holds: its presence alone says sync was set up.
        static func exists(in location: VaultLocation) -> Bool {
            access(url(in: location).path, F_OK) == 0
        }

        /// The file's contents, or nil when it is absent or unreadable.
        static func read(in location: VaultLocation) -> SyncState.SetupFile? {
            guard let data = try? Data(contentsOf: url(in: location)) else { return nil }
            return try? JSONDecoder().decode(SyncState.SetupFile.self, from: data)
        }

        /// Records `state`'s setup, unless the file already says the same.
        static func record(_ state: SyncStore.StateRecord, in location: VaultLocation) throws {
            let file = SyncState.SetupFile(state)
            guard read(in: location) != file else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try SecureFile.writeAtomically(try encoder.encode(file) + Data("\n".utf8), to: url(in: location))
        }
    }
}
