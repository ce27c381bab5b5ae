import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// The standing-problem checks of `SyncEngineStandingIssueTests` on the real
/// remotes: a tampered object put back with the same size is read again
/// (the folder's inode and change time, S3's ETag, tell it changed), and the
/// live check notices an emptied remote.
final class SyncEngineRealRemoteProblemTests: XCTestCase {
    private static let moto = MotoServer.ForTestClass("moto-problems")

    override class func tearDown() {
        moto.stop()
        super.tearDown()
    }

    func testFolderRemote() async throws {
        let folder = try makeTemporaryFolder().url
        try await checkTamperRepairAndVanish(
            folder: folder, remote: try FolderRemote(path: folder.appendingPathComponent("remote").path))
    }

    func testS3Remote() async throws {
        Self.moto.start()
        let server = try Self.moto.running()
        let configuration = try server.configuration(prefix: "problems-\(UUID().uuidString.lowercased())")
        let remote = S3Remote(configuration: configuration, credentials: server.credentials, timeout: 30)
        do {
            try await checkTamperRepairAndVanish(folder: try makeTemporaryFolder().url, remote: remote)
        } catch {
            try await remote.close()
            throw error
        }
        try await remote.close()
    }

    /// A batch swapped for a sparse file over `RemoteObject.maximumSize` is
    /// rejected unread, skipped while it stays, and read once put right.
    func testAnObjectOverTheBoundIsRejectedUnreadUntilRepaired() async throws {
        let folder = try makeTemporaryFolder().url
        let root = folder.appendingPathComponent("remote").path
        let remote = try FolderRemote(path: root)
        let (_, b, _, first, original) = try await twoDevicesAndAFirstBatch(folder: folder, remote: remote)
        let path = root + "/" + first
        XCTAssertEqual(truncate(path, off_t(RemoteObject.maximumSize) + 1), 0)

        let rejected = try await b.sync()
        XCTAssertEqual(rejected.issues.map(\.kind), [.rejected])
        XCTAssertEqual(rejected.issues.first?.subject, first)
        XCTAssertTrue(
            rejected.issues.first?.detail.contains("more than the \(RemoteObject.maximumSize) bytes allowed") == true,
            rejected.issues.first?.detail ?? "")
        let skipped = try await b.sync()
        XCTAssertEqual(skipped.issues, [], "remembered by its listed version, not read again")
        XCTAssertEqual(try b.labels, [])

        try await remote.put(first, data: original)
        let repaired = try await b.sync()
        XCTAssertEqual(repaired.issues, [])
        XCTAssertEqual(try b.labels, ["Site:one"])
    }

    /// A marker or manifest swapped for a sparse file over
    /// `RemoteObject.maximumSize` is rejected unread and reported; syncs,
    /// `disable --everywhere` and the other devices go on.
    func testAMarkerOrManifestOverTheBoundIsRejectedNotFatal() async throws {
        let folder = try makeTemporaryFolder().url
        let root = folder.appendingPathComponent("remote").path
        let remote = try FolderRemote(path: root)
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        let vaultID = try await a.enable().remoteVaultID
        try await b.enable()
        try await a.sync()
        try await b.sync()

        let marker = RemoteLayout.disabledMarker(vaultID, generation: RemoteLayout.maximumNumber)
        try await remote.put(marker, data: Data("planted".utf8))
        XCTAssertEqual(truncate(root + "/" + marker, off_t(RemoteObject.maximumSize) + 1), 0)
        let manifest = RemoteLayout.manifest(vaultID)
        let original = try await remote.get(manifest)
        XCTAssertEqual(truncate(root + "/" + manifest, off_t(RemoteObject.maximumSize) + 1), 0)

        let report = try await b.sync()
        XCTAssertEqual(Set(report.rejectedObjects.map(\.subject)), [marker, manifest])
        XCTAssertTrue(
            report.rejectedObjects.allSatisfy { $0.detail.contains("more than the \(RemoteObject.maximumSize) bytes") },
            "\(report.rejectedObjects)")
        XCTAssertTrue(SyncState.isEnabled(in: b.vault.location))

        try await remote.put(manifest, data: try XCTUnwrap(original))
        try await a.disable(everywhere: true)
        XCTAssertEqual(try SyncStore.openIfPresent(in: a.vault.location)?.state()?.disabledGeneration, 1)
        let error = await syncError { try await b.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere, "the real marker is found past the oversized one")
    }
}
