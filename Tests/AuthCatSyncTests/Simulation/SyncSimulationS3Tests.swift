import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// The seeded simulation on a real S3 server (moto_server on loopback, one
/// for the class: `MotoServer.ForTestClass`).
final class SyncSimulationS3Tests: XCTestCase {
    private static let moto = MotoServer.ForTestClass("moto-sync")

    override class func setUp() {
        super.setUp()
        moto.start()
    }

    override class func tearDown() {
        moto.stop()
        super.tearDown()
    }

    override func setUpWithError() throws {
        _ = try Self.moto.running()
    }

    func testS3Remote() async throws {
        let server = try Self.moto.running()
        let folder = try makeTemporaryFolder().url
        let configuration = try server.configuration(prefix: "sim-\(UUID().uuidString.lowercased())")
        let remote = S3Remote(configuration: configuration, credentials: server.credentials, timeout: 30)
        do {
            try await SyncSimulation(seed: SyncSimulationTests.seeds[0], folder: folder, remote: remote)
                .run(steps: SyncSimulationTests.steps)
        } catch {
            try await remote.close()
            throw error
        }
        try await remote.close()
    }
}
