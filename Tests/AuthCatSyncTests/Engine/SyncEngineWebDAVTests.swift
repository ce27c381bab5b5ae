import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// The engine on WebDAV and rclone remotes, against real servers on loopback
/// shared by the class: the seeded simulation (convergence of three devices,
/// interrupted syncs, compaction, joins), tamper and repair, an emptied remote,
/// `--delete-remote`, and a server that goes away in the middle of a sync.
final class SyncEngineWebDAVTests: XCTestCase {
    private static let servers = ClassWebDAVServers([.lighttpd, .apache, .rclone])
    /// Stopped by the test that needs a server to vanish.
    private static let doomed = ClassWebDAVServers([.lighttpd])
    private var remotes: [any Remote] = []

    override class func setUp() {
        super.setUp()
        servers.start()
        doomed.start()
    }

    override class func tearDown() {
        servers.stop()
        doomed.stop()
        super.tearDown()
    }

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        remotes = []
    }

    private func webDAV(_ kind: WebDAVServer.Kind) throws -> WebDAVRemote {
        let remote = try Self.servers.running(kind).makeRemote()
        remotes.append(remote)
        return remote
    }

    private func rcloneLocal() async throws -> RcloneRemote {
        let folder = try makeTemporaryFolder().path
        let remote = try await RcloneRemote(
            configuration: RcloneConfiguration(remote: "testlocal", path: folder + "/remote"),
            environment: [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder,
                "RCLONE_CONFIG": folder + "/rclone.conf", "RCLONE_CONFIG_TESTLOCAL_TYPE": "local",
            ])
        remotes.append(remote)
        return remote
    }

    func testSimulationOnLighttpd() async throws {
        try await SyncSimulation(
            seed: SyncSimulationTests.seeds[0], folder: try makeTemporaryFolder().url, remote: try webDAV(.lighttpd)
        ).run(steps: SyncSimulationTests.steps)
    }

    /// The server that ignores `If-None-Match`: each device writes only its own objects, so it syncs all the same.
    func testSimulationOnRcloneServe() async throws {
        try await SyncSimulation(
            seed: SyncSimulationTests.seeds[1], folder: try makeTemporaryFolder().url, remote: try webDAV(.rclone)
        ).run(steps: SyncSimulationTests.steps / 2)
    }

    /// One rclone run per request: fewer steps keep the test short.
    func testSimulationOnRclone() async throws {
        try await SyncSimulation(
            seed: SyncSimulationTests.seeds[2], folder: try makeTemporaryFolder().url, remote: try await rcloneLocal()
        ).run(steps: SyncSimulationTests.steps / 8)
    }

    /// Apache's ETags are weak for a second after a write; a repaired object must still read as changed.
    func testTamperRepairAndVanishOnApache() async throws {
        try await checkTamperRepairAndVanish(folder: try makeTemporaryFolder().url, remote: try webDAV(.apache))
    }

    func testTamperRepairAndVanishOnLighttpd() async throws {
        try await checkTamperRepairAndVanish(folder: try makeTemporaryFolder().url, remote: try webDAV(.lighttpd))
    }

    func testTamperRepairAndVanishOnRclone() async throws {
        try await checkTamperRepairAndVanish(folder: try makeTemporaryFolder().url, remote: try await rcloneLocal())
    }

    /// `disable --delete-remote` leaves the signed marker, and no empty folder, on the server's disk.
    func testDeleteRemoteLeavesOnlyTheMarker() async throws {
        let server = try Self.servers.running(.lighttpd)
        let folder = "t-\(UUID().uuidString.lowercased())"
        let remote = server.makeRemote(folder: folder)
        remotes.append(remote)
        let devices = try makeTemporaryFolder().url
        let a = try SyncTestDevice("a", in: devices, remote: remote)
        let b = try SyncTestDevice("b", in: devices, remote: remote)
        let vaultID = try await a.enable().remoteVaultID
        try await b.enable()
        try a.add("Site", "one")
        try await a.sync()
        try await b.sync()
        try await a.compact()
        try await a.disable(deleteRemote: true)
        let base = server.documentRoot + "/" + folder + "/vault"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base), [RemoteLayout.deletedMarker(vaultID)])
        let error = await syncError { try await b.sync() }
        XCTAssertEqual(error?.category, .remoteDeleted)
        XCTAssertEqual(try b.labels, ["Site:one"], "local data is kept")
    }

    /// The server stops after the first object of a compaction (its sync's
    /// batch) is written, before the snapshot: the run fails as `no network`
    /// and nothing local is lost.
    func testAServerThatGoesAwayMidSync() async throws {
        let server = try Self.doomed.running(.lighttpd)
        let remote = server.makeRemote()
        remotes.append(remote)
        let devices = try makeTemporaryFolder().url
        let a = try SyncTestDevice("a", in: devices, remote: remote)
        try await a.enable()
        try a.add("Site", "one")
        try await a.sync()
        for index in 0..<5 { try a.add("Site", "more\(index)") }
        let breaking = AtFirstWrite(remote) { server.stop() }
        a.remote = breaking
        let error = await syncError { try await a.compact() }
        XCTAssertEqual(error?.category, .unreachable, "\(String(describing: error))")
        XCTAssertNoThrow(try breaking.actionOutcome?.get(), "the server was stopped as planned")
        XCTAssertNotNil(breaking.actionOutcome, "after the first object went out")
        let status = SyncStatus.fold(
            events: a.events.events, local: try SyncState.localState(in: a.vault.location), probe: nil,
            now: a.clock.now())
        XCTAssertEqual(status.summary, .noNetwork)
        XCTAssertEqual(try a.labels.count, 6, "every local account is still there")
    }
}
