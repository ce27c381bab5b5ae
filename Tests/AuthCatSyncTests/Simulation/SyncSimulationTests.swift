@testable import AuthCatSync
import AuthCatCore
import Foundation
import XCTest

/// The seeded simulation on the memory and folder remotes (S3: `SyncSimulationS3Tests`).
final class SyncSimulationTests: XCTestCase {
    static let seeds: [UInt64] = [1, 2, 3]
    static let steps = 120

    func testMemoryRemote() async throws {
        for seed in Self.seeds {
            let folder = try makeTemporaryDirectory().url
            try await SyncSimulation(seed: seed, folder: folder, remote: MemoryRemote()).run(steps: Self.steps)
        }
    }

    func testFolderRemote() async throws {
        for seed in Self.seeds.prefix(2) {
            let folder = try makeTemporaryDirectory().url
            let remote = try FolderRemote(path: folder.appendingPathComponent("remote").path)
            try await SyncSimulation(seed: seed, folder: folder, remote: remote).run(steps: Self.steps)
        }
    }
}
