import Foundation
import XCTest

/// The vault's files, byte for byte, plus what authcat itself reports about
/// them, to prove that a failed command changed nothing.
///
/// SQLite's shared-memory index (`-shm`) is left out: readers rebuild it.
struct VaultSnapshot: Equatable {
    var files: [String: Data]
    var listing: String
    var historyCount: Int

    static let fileNames = ["vault.sqlite", "vault.sqlite-wal", "vault.key"]

    /// Takes the snapshot; `authcat` is run (with --home) for the listing and history.
    static func take(_ authcat: AuthCatRunner) throws -> VaultSnapshot {
        var files: [String: Data] = [:]
        for name in fileNames {
            let url = authcat.home.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: url.path) { files[name] = data }
        }
        let listing = try authcat.run(["list", "--json"]).stdout
        let history = try authcat.run(["history", "--json", "--limit", "0"]).stdout
        let count = (try? JSONSerialization.jsonObject(with: Data(history.utf8)) as? [Any])?.count ?? -1
        return VaultSnapshot(files: files, listing: listing, historyCount: count)
    }

    /// Names of the files whose bytes differ between two snapshots.
    func changedFiles(comparedTo other: VaultSnapshot) -> [String] {
        Self.fileNames.filter { files[$0] != other.files[$0] }
    }
}
