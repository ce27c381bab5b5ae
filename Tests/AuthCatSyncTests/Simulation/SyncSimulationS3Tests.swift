@testable import AuthCatSync
import AuthCatCore
import Foundation
import XCTest

/// The seeded simulation on a real S3 server (moto_server on loopback).
///
/// The server is started in the class's synchronous `setUp`, as in
/// `S3RemoteTests`: a child started from an async test's thread would inherit
/// that thread's blocked signals and never see the SIGTERM that stops it.
final class SyncSimulationS3Tests: XCTestCase {
    private static var server: MotoServer?
    private static var startError: Error?
    private static var logDirectory: TemporaryDirectory?

    override class func setUp() {
        super.setUp()
        do {
            let directory = try TemporaryDirectory("moto-sync")
            logDirectory = directory
            server = try MotoServer(logDirectory: directory.path)
        } catch {
            startError = error
        }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        logDirectory?.remove()
        super.tearDown()
    }

    override func setUpWithError() throws {
        // Never skipped: without moto_server this fails saying how to install it.
        if let error = Self.startError { throw error }
    }

    func testS3Remote() async throws {
        let server = try XCTUnwrap(Self.server)
        let folder = try makeTemporaryDirectory().url
        let configuration = try server.configuration(prefix: "sim-\(UUID().uuidString.lowercased())")
        let remote = S3Remote(configuration: configuration, credentials: server.credentials, timeout: 5)
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
