import AuthCatTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 §3: a remote someone else controls plants what it likes, and the
/// built programs hold: a 3 GiB sparse file or a FIFO as a batch, a device's
/// folder swapped for a link, an S3 server whose listings are nested 30,000
/// deep or crowded with leaves, whose objects are larger than the bound or
/// whose `content-length` lies. Each sync ends (no hang: only a generous
/// 120 s bound, never a time assertion), in little memory (the peak GNU time
/// reports), with the problem named in `sync status`, and local data kept.
final class HostileRemoteTests: FaultTestCase {
    /// Far below what reading any planted object whole would take (3 GiB, or 64 MiB twice over).
    private static let memoryBoundKiB = 200 * 1024

    private var environment: [String: String] {
        ["AUTHCAT_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path]
    }

    private var remoteFolder: URL { scratch.appendingPathComponent("remote") }

    // MARK: - Folder remote

    func testASparseFileAsABatchIsRejectedWithoutBeingRead() throws {
        let (a, b) = try twoDevices(on: "file://" + remoteFolder.path)
        let planted = try nextBatchPath(of: b)
        XCTAssertTrue(FileManager.default.createFile(atPath: planted, contents: nil))
        XCTAssertEqual(truncate(planted, 3 << 30), 0, "a 3 GiB sparse file")

        let sync = try bounded(a, ["sync", "now"])
        XCTAssertNotEqual(sync.termination, .exited(0), "the sync reports the problem: \(sync.stderr)")
        XCTAssertTrue(sync.stderr.contains("problem"), sync.stderr)
        try expectReported(a, URL(fileURLWithPath: planted).lastPathComponent, "not read")
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:a", "B:b1"], "local data kept")
    }

    func testAFIFOAsABatchOrSnapshotDoesNotHangASync() throws {
        let (a, b) = try twoDevices(on: "file://" + remoteFolder.path)
        let batch = try nextBatchPath(of: b)
        XCTAssertEqual(mkfifo(batch, 0o600), 0)
        let snapshot = batch.replacingOccurrences(of: "/b-", with: "/s-")
        XCTAssertEqual(mkfifo(snapshot, 0o600), 0)
        let sync = try bounded(a, ["sync", "now"])
        guard case .exited = sync.termination else { return XCTFail("sync now: \(sync.termination)") }
        let status = try bounded(a, ["sync", "status", "--json"])
        guard case .exited = status.termination else { return XCTFail("sync status: \(status.termination)") }
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:a", "B:b1"], "local data kept")
    }

    func testADeviceFolderSwappedForALinkIsNeitherWrittenNorCleanedThrough() throws {
        let (a, b) = try twoDevices(on: "file://" + remoteFolder.path)
        let outside = scratch.appendingPathComponent("outside")
        let ownFolder = try deviceFolder(of: a)
        try FileManager.default.moveItem(atPath: ownFolder, toPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: ownFolder, withDestinationPath: outside.path)
        let stale = outside.appendingPathComponent(".authcat-tmp-0123abcd")
        try Data("someone else's".utf8).write(to: stale)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -86_400 * 30)], ofItemAtPath: stale.path)
        let othersOutside = scratch.appendingPathComponent("others-outside")
        let othersFolder = try deviceFolder(of: b)
        try FileManager.default.copyItem(atPath: othersFolder, toPath: othersOutside.path)
        try FileManager.default.removeItem(atPath: othersFolder)
        try FileManager.default.createSymbolicLink(atPath: othersFolder, withDestinationPath: othersOutside.path)
        let before = try contents(of: outside)
        let othersBefore = try contents(of: othersOutside)

        try add(a, "a2", issuer: "A", environment: environment)
        waitForStragglers(under: a.path, timeout: 60)
        for command in [["sync", "now"], ["sync", "compact"], ["sync", "status", "--json"]] {
            let run = try bounded(a, command)
            guard case .exited = run.termination else { return XCTFail("\(command): \(run.termination)") }
        }
        XCTAssertEqual(try contents(of: outside), before, "nothing written or deleted through the link to A's folder")
        XCTAssertEqual(
            try contents(of: othersOutside), othersBefore, "nothing written or deleted through the link to B's folder")
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:a", "A:a2", "B:b1"], "local data kept")
    }

    // MARK: - Hostile S3

    func testHostileS3ListingsFailCleanlyInSmallMemory() throws {
        let server = try HostileS3Server()
        defer { server.stop() }
        let (a, _) = try twoDevices(on: server.location(prefix: "v"), extra: HostileS3Server.environment)
        for (mode, reason) in [
            (HostileS3Server.Mode.nestedListing(depth: 30_000), "nest more than 16 deep"),
            (.crowdedListing(leaves: 30_000), "more than 25000 elements"),
        ] {
            server.mode = mode
            let sync = try bounded(a, ["sync", "now"], extra: HostileS3Server.environment)
            XCTAssertNotEqual(sync.termination, .exited(0))
            XCTAssertTrue(
                sync.stderr.contains("the listing cannot be read") && sync.stderr.contains(reason), sync.stderr)
            try expectReported(a, "the listing cannot be read", reason, extra: HostileS3Server.environment)
        }
        server.mode = .honest
        try succeed(a, ["sync", "now"], environment: environment.merging(HostileS3Server.environment) { $1 })
    }

    func testHostileS3ObjectsAreRejectedUnreadAndReadOnceRepaired() throws {
        let server = try HostileS3Server()
        defer { server.stop() }
        let (a, b) = try twoDevices(on: server.location(prefix: "v"), extra: HostileS3Server.environment)
        let bDevice = try deviceID(of: b, extra: HostileS3Server.environment)
        let oversize = 64 * 1024 * 1024 + 1
        let modes: [(mode: (String) -> HostileS3Server.Mode, detail: String)] = [
            (
                { .announcedOversize(key: $0, bytes: 3 << 30) },
                "not read: the server sends more than the 67108864 bytes allowed"
            ),
            (
                { .streamedOversize(key: $0, bytes: oversize) },
                "not read: the server sends more than the 67108864 bytes allowed"
            ),
            ({ .lyingLength(key: $0) }, "failed authentication"),
        ]
        for (index, (mode, detail)) in modes.enumerated() {
            try add(
                b, "b\(index + 2)", issuer: "B", environment: environment.merging(HostileS3Server.environment) { $1 })
            waitForStragglers(under: b.path, timeout: 60)
            try succeed(b, ["sync", "now"], environment: environment.merging(HostileS3Server.environment) { $1 })
            let key = try XCTUnwrap(server.keys.filter { $0.contains("/\(bDevice)/b-") }.last)
            server.mode = mode(key)
            let sync = try bounded(a, ["sync", "now"], extra: HostileS3Server.environment)
            XCTAssertNotEqual(sync.termination, .exited(0), "\(server.mode): \(sync.stderr)")
            try expectReported(
                a, String(key.split(separator: "/").last ?? ""), detail, extra: HostileS3Server.environment)
            server.mode = .honest
            server.touch(key)
            try succeed(a, ["sync", "now"], environment: environment.merging(HostileS3Server.environment) { $1 })
            XCTAssertTrue(try listed(a).map(\.label).contains("B:b\(index + 2)"), "read once repaired")
        }
    }

    /// Issue 32 §4: a reply that never ends, an object's or a listing's, is cut at its bound as it arrives.
    func testEndlessS3RepliesAreCutAtTheirBound() throws {
        let server = try HostileS3Server()
        defer { server.stop() }
        let (a, b) = try twoDevices(on: server.location(prefix: "v"), extra: HostileS3Server.environment)
        let bDevice = try deviceID(of: b, extra: HostileS3Server.environment)
        try add(b, "b2", issuer: "B", environment: environment.merging(HostileS3Server.environment) { $1 })
        waitForStragglers(under: b.path, timeout: 60)
        try succeed(b, ["sync", "now"], environment: environment.merging(HostileS3Server.environment) { $1 })
        let key = try XCTUnwrap(server.keys.filter { $0.contains("/\(bDevice)/b-") }.last)

        server.mode = .endlessObject(key: key)
        let read = try bounded(a, ["sync", "now"], extra: HostileS3Server.environment)
        XCTAssertNotEqual(read.termination, .exited(0), read.stderr)
        try expectReported(
            a, String(key.split(separator: "/").last ?? ""),
            "not read: the server sends more than the 67108864 bytes allowed", extra: HostileS3Server.environment)

        server.mode = .endlessListingReply
        let listing = try bounded(a, ["sync", "now"], extra: HostileS3Server.environment)
        XCTAssertNotEqual(listing.termination, .exited(0), listing.stderr)
        XCTAssertTrue(listing.stderr.contains("bytes allowed"), listing.stderr)

        server.mode = .honest
        server.touch(key)
        try succeed(a, ["sync", "now"], environment: environment.merging(HostileS3Server.environment) { $1 })
        XCTAssertTrue(try listed(a).map(\.label).contains("B:b2"), "read once the server is honest again")
    }

    // MARK: - Helpers

    /// Device A (account A:a) and device B (account B:b1) on `location`, A having read B's first batch.
    private func twoDevices(on location: String, extra: [String: String] = [:]) throws -> (URL, URL) {
        let environment = environment.merging(extra) { $1 }
        let a = makeHome("a")
        let b = makeHome("b")
        try add(a, "a", issuer: "A", environment: environment)
        try succeed(a, ["sync", "enable", "--remote", location], environment: environment)
        try succeed(b, ["sync", "enable", "--remote", location], environment: environment)
        try add(b, "b1", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 60)
        try succeed(b, ["sync", "now"], environment: environment)
        try succeed(a, ["sync", "now"], environment: environment)
        return (a, b)
    }

    /// Runs a command that must end within a generous bound and in small memory.
    private func bounded(
        _ home: URL, _ arguments: [String], extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> FaultRun {
        try bounded(
            home, arguments, environment: environment.merging(extra) { $1 }, belowKiB: Self.memoryBoundKiB,
            file: file, line: line)
    }

    /// `sync status --json` is not healthy and its document says both `subject` and `detail`.
    private func expectReported(
        _ home: URL, _ subject: String, _ detail: String, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let status = try bounded(home, ["sync", "status", "--json"], extra: extra, file: file, line: line)
        XCTAssertNotEqual(status.termination, .exited(0), "sync status: \(status.stdout)", file: file, line: line)
        XCTAssertTrue(
            status.stdout.contains(subject) && status.stdout.contains(detail),
            "sync status names \(subject) (\(detail)): \(status.stdout)", file: file, line: line)
    }

    private func deviceID(of home: URL, extra: [String: String] = [:]) throws -> String {
        let result = try run(home, ["sync", "status", "--json"], environment: environment.merging(extra) { $1 })
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        let devices = json["devices_seen"] as? [[String: Any]] ?? []
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String, "the device id")
    }

    /// The folder of `home`'s device on the folder remote.
    private func deviceFolder(of home: URL) throws -> String {
        let device = try deviceID(of: home)
        let vaults = try FileManager.default.contentsOfDirectory(atPath: remoteFolder.path).filter {
            !$0.hasSuffix(".deleted")
        }
        let vault = try XCTUnwrap(vaults.first { $0.hasPrefix("authcat-") })
        return remoteFolder.path + "/" + vault + "/" + device
    }

    /// The path of the batch after `home`'s newest on the folder remote.
    private func nextBatchPath(of home: URL) throws -> String {
        let folder = try deviceFolder(of: home)
        let newest = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("b-") }.max())
        let digits = newest.dropFirst(2)
        let next = String((Int(digits) ?? 0) + 1)
        return folder + "/b-" + String(repeating: "0", count: max(0, digits.count - next.count)) + next
    }

    /// Every file in `folder` with its bytes and modification time.
    private func contents(of folder: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            let modified = (try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?
                .timeIntervalSince1970
            found[name] = "\(try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()) \(modified ?? 0)"
        }
        return found
    }
}
