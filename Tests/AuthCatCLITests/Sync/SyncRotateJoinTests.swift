import AuthCatTestSupport
import Foundation
import XCTest

/// A device that joins with the sync passphrase while a rotation is half
/// done: `sync rotate` SIGKILLed after the new epoch's record is written and
/// before the old generation is removed. The remote is a small S3 on
/// loopback that holds one chosen request unanswered, so the kill lands
/// exactly there: before the new epoch's manifest is written, or before the
/// first object of the old key is deleted. The joiner syncs without joining
/// a second time, and every device ends up with every account.
final class SyncRotateJoinTests: SyncTestCase {
    /// Where the rotation is killed: the request held unanswered when it is.
    private enum KillPoint {
        /// The record is created; the manifest still wraps the old key.
        case beforeTheNewManifest
        /// The manifest and the new generation are written; the old key's objects are all there.
        case beforeTheOldObjectsAreRemoved

        var stall: HostileS3Server.Mode {
            switch self {
            case .beforeTheNewManifest: .stall(method: "PUT") { $0.hasSuffix("/manifest") }
            case .beforeTheOldObjectsAreRemoved: .stall(method: "DELETE") { $0.contains("/b-") || $0.contains("/s-") }
            }
        }
    }

    func testAJoinerBeforeTheNewManifestFinishesTheRotationAndSyncs() throws {
        try joinWhileARotationIsHalfDone(killed: .beforeTheNewManifest)
    }

    func testAJoinerBeforeTheOldObjectsAreRemovedSyncs() throws {
        try joinWhileARotationIsHalfDone(killed: .beforeTheOldObjectsAreRemoved)
    }

    private func joinWhileARotationIsHalfDone(killed point: KillPoint) throws {
        let server = try HostileS3Server()
        defer { server.stop() }
        let remote = server.location(prefix: "v-\(UUID().uuidString.prefix(8).lowercased())")
        let (rotating, other) = (try makeS3Device(), try makeS3Device())
        try add(rotating, "alice")
        try enable(rotating, remote: remote)
        try add(other, "bob")
        try enable(other, remote: remote)
        try succeed(other, ["sync", "now"])
        try succeed(rotating, ["sync", "now"])
        let before = try labels(rotating)
        XCTAssertEqual(before, ["Example:alice", "Example:bob"])

        server.mode = point.stall
        let running = try start(rotating, ["sync", "rotate", "--yes"])
        XCTAssertTrue(eventually(within: 60) { server.stalledKey != nil }, "the rotation never reached \(point)")
        kill(running.pid, SIGKILL)
        XCTAssertNotNil(running.waitForExit(timeout: 60))
        let keys = server.keys
        XCTAssertTrue(keys.contains { $0.contains("/rotation-") }, "the record is written: \(keys)")
        XCTAssertTrue(
            keys.contains { ($0.contains("/b-") || $0.contains("/s-")) && !$0.contains("/e-") },
            "the old generation is still there: \(keys)")

        let joiner = try makeS3Device()
        try add(joiner, "carol")
        try enable(joiner, remote: remote)
        try succeed(joiner, ["sync", "now"])
        XCTAssertEqual(try status(joiner).status, 0)
        // The devices that were there take the new key at their next sync, and write everything under it.
        for device in [other, rotating, joiner, other, rotating] { try succeed(device, ["sync", "now"]) }
        let everything = ["Example:alice", "Example:bob", "Example:carol"]
        for device in [rotating, other, joiner] {
            XCTAssertEqual(try labels(device), everything)
            XCTAssertEqual(try status(device).status, 0)
        }
        // Running the rotation again finishes it: only the newest key's objects are left.
        try succeed(rotating, ["sync", "rotate", "--yes"])
        for device in [other, joiner] { try succeed(device, ["sync", "now"]) }
        XCTAssertFalse(
            server.keys.contains { ($0.contains("/b-") || $0.contains("/s-")) && !$0.contains("/e-0000000002/") },
            "\(server.keys)")
        XCTAssertEqual(try labels(joiner), everything)
    }

    private func makeS3Device() throws -> AuthCatRunner {
        let device = try makeDevice()
        device.environment.merge(HostileS3Server.environment) { $1 }
        return device
    }
}
