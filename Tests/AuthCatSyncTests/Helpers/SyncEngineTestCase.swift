import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// What the engine tests start from: a fresh folder, one remote in memory,
/// and devices on it (`SyncTestDevice`), each with a vault of its own.
class SyncEngineTestCase: XCTestCase {
    private(set) var folder: URL!
    private(set) var remote: MemoryRemote!

    /// Subclasses that set up more call this first.
    override func setUp() async throws {
        try await super.setUp()
        folder = try makeTemporaryFolder().url
        remote = MemoryRemote()
    }

    /// A new device named `name` on the remote; sync is not on yet.
    func device(_ name: String) throws -> SyncTestDevice {
        try SyncTestDevice(name, in: folder, remote: remote)
    }

    /// `first` creates the remote vault and syncs, then each of `others` joins
    /// and syncs, in that order; returns the remote vault's id.
    @discardableResult
    func join(_ first: SyncTestDevice, _ others: SyncTestDevice...) async throws -> String {
        let vaultID = try await first.enable().remoteVaultID
        try await first.sync()
        for device in others {
            try await device.enable()
            try await device.sync()
        }
        return vaultID
    }

    /// The sync state `device` keeps.
    func syncState(_ device: SyncTestDevice) throws -> SyncStore.StateRecord {
        try XCTUnwrap(SyncStore.openIfPresent(in: device.vault.location)?.state(), "\(device.name)'s sync state")
    }

    /// The id `device` has on the remote.
    func deviceID(_ device: SyncTestDevice) throws -> String {
        try syncState(device).deviceID
    }
}
