import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Temporary files left on a folder remote by syncs killed part-way (issue 8 §5).
final class SyncEngineTemporariesTests: XCTestCase {
    private func touch(_ path: String, modified: Date) throws {
        try Data("partial".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    func testASyncRemovesOnlyThisDevicesStaleTemporaries() async throws {
        let folder = try makeTemporaryFolder().url
        let remote = try FolderRemote(path: folder.appendingPathComponent("remote").path)
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        let vaultID = try await a.enable().remoteVaultID
        try a.add("Site", "one")
        try await a.sync()
        try await b.enable()
        try await b.sync()
        let own = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location)?.state()?.deviceID)
        let other = try XCTUnwrap(SyncStore.openIfPresent(in: b.vault.location)?.state()?.deviceID)
        let root = remote.rootPath + "/" + RemoteLayout.folder(vaultID)
        let stale = "\(root)/\(own)/.authcat-tmp-dead1"
        // Stands for a write still going on: changed after the sync took its lock.
        let current = "\(root)/\(own)/.authcat-tmp-live1"
        let othersTemporary = "\(root)/\(other)/.authcat-tmp-dead2"
        let shared = "\(root)/.authcat-tmp-dead3"
        // b wrote nothing yet: its folder would be made by its first batch.
        try FileManager.default.createDirectory(atPath: "\(root)/\(other)", withIntermediateDirectories: true)
        try touch(stale, modified: Date(timeIntervalSinceNow: -3600))
        try touch(current, modified: Date(timeIntervalSinceNow: 3600))
        try touch(othersTemporary, modified: Date(timeIntervalSinceNow: -3600))
        try touch(shared, modified: Date(timeIntervalSinceNow: -3600))

        // Made after the temporaries: a job makes its remote after it takes the run lock.
        a.remote = try FolderRemote(path: remote.rootPath)
        try a.add("Site", "two")
        let report = try await a.sync()
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "this device's stale temporary is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: current), "one changed since the lock was taken is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: othersTemporary), "another device's folder is not ours")
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared), "the vault folder is written by every device")
        XCTAssertEqual(report.issues, [])
    }
}
