import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// The seeded simulation on the memory and folder remotes (S3: `SyncSimulationS3Tests`).
final class SyncSimulationTests: XCTestCase {
    static let seeds: [UInt64] = [1, 2, 3]
    static let steps = 120

    /// `AUTHCAT_SYNC_SIMULATION_SEEDS=first-last` runs those seeds instead, to hunt or replay a failure.
    static var memorySeeds: [UInt64] {
        guard let range = ProcessInfo.processInfo.environment["AUTHCAT_SYNC_SIMULATION_SEEDS"],
            let dash = range.firstIndex(of: "-"), let first = UInt64(range[..<dash]),
            let last = UInt64(range[range.index(after: dash)...]), first <= last
        else { return seeds }
        return Array(first...last)
    }

    func testMemoryRemote() async throws {
        var interrupted = 0
        for seed in Self.memorySeeds {
            let folder = try makeTemporaryFolder().url
            let simulation = try SyncSimulation(seed: seed, folder: folder, remote: MemoryRemote())
            try await simulation.run(steps: Self.steps)
            interrupted += simulation.interruptedSyncs
        }
        XCTAssertGreaterThan(interrupted, 0, "no sync was interrupted: the simulation lost its teeth")
    }

    /// A seed replays exactly: the same accounts, and the same objects on the
    /// remote under the same device ids and of the same padded sizes (only the
    /// vault's random id differs, and the manifest, which holds random keys).
    func testASeedReplaysExactly() async throws {
        var outcomes: [[String]] = []
        for _ in 0..<2 {
            let remote = MemoryRemote()
            let simulation = try SyncSimulation(seed: 7, folder: try makeTemporaryFolder().url, remote: remote)
            try await simulation.run(steps: 60)
            let objects = try await remote.list(prefix: "").map { object in
                let name = object.name.split(separator: "/").dropFirst().joined(separator: "/")
                return name == "manifest" ? name : "\(name) \(object.size)"
            }
            outcomes.append(try simulation.devices[0].fingerprint() + objects.sorted())
        }
        XCTAssertEqual(outcomes[0], outcomes[1])
    }

    func testFolderRemote() async throws {
        for seed in Self.seeds.prefix(2) {
            let folder = try makeTemporaryFolder().url
            let remote = try FolderRemote(path: folder.appendingPathComponent("remote").path)
            try await SyncSimulation(seed: seed, folder: folder, remote: remote).run(steps: Self.steps)
        }
    }
}
