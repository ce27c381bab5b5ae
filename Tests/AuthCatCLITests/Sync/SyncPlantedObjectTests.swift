import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 32 §B through the built programs on a folder remote: 512 random
/// bytes planted under an object's name (of a device no one knows, ahead of
/// a known device, of a revoked device) are reported by every device while
/// they stand, and once they are deleted the next sync leaves every device
/// `succeeded` with exit status 0: nothing that did not open was recorded.
/// A genuine rollback is still reported.
final class SyncPlantedObjectTests: SyncTestCase {
    private var random = SeededRandom(seed: 0)

    override func setUpWithError() throws {
        try super.setUpWithError()
        let seed = UInt64.random(in: 1...UInt64.max)
        print("SyncPlantedObjectTests seed: \(seed)")
        random = SeededRandom(seed: seed)
    }

    /// Runs the built program; a sync may report problems (exit 4), never fail otherwise.
    @discardableResult
    private func sync(_ device: AuthCatRunner, file: StaticString = #filePath, line: UInt = #line) throws -> Int32 {
        let result = try device.runAsProcess(["sync", "now"], timeout: 300)
        XCTAssertTrue([0, 4].contains(result.status), "sync now: \(result.stderr)", file: file, line: line)
        return result.status
    }

    /// `sync status --json --offline` from the built program, with its exit status.
    private func processStatus(
        _ device: AuthCatRunner, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, json: [String: Any]) {
        let result = try device.runAsProcess(["sync", "status", "--json", "--offline"], timeout: 300)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr,
            file: file, line: line)
        return (result.status, json)
    }

    private func thisDeviceID(_ device: AuthCatRunner) throws -> String {
        let devices = try XCTUnwrap(try processStatus(device).json["devices_seen"] as? [[String: Any]])
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String)
    }

    /// The remote vault's folder (`authcat-<vault>`), relative to the remote.
    private func vaultFolder() throws -> String {
        try XCTUnwrap(remoteFiles().first { $0.hasSuffix("/manifest") }).replacingOccurrences(of: "/manifest", with: "")
    }

    private func settled(_ devices: [AuthCatRunner]) {
        for device in devices { XCTAssertTrue(eventually { runningPushes(of: device).isEmpty }) }
    }

    /// Plants 512 random bytes at `name`; each device reports them while
    /// they stand (exit 4); once deleted, one sync each leaves every device
    /// `succeeded` with exit 0.
    private func assertReportedWhileStandingThenForgotten(
        _ name: String, devices: [AuthCatRunner], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let url = remoteFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: url)
        for device in devices {
            XCTAssertEqual(try sync(device, file: file, line: line), 4, name, file: file, line: line)
            let (code, json) = try processStatus(device, file: file, line: line)
            XCTAssertEqual(code, 4, "\(json)", file: file, line: line)
            XCTAssertEqual(json["summary"] as? String, "error", file: file, line: line)
            let rejected = (json["rejected_objects"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let standing = (json["standing_issues"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            XCTAssertTrue(rejected == [name] || standing == ["gap"], "\(json)", file: file, line: line)
        }
        try FileManager.default.removeItem(at: url)
        for device in devices {
            XCTAssertEqual(try sync(device, file: file, line: line), 0, name, file: file, line: line)
            let (code, json) = try processStatus(device, file: file, line: line)
            XCTAssertEqual(code, 0, "\(json)", file: file, line: line)
            XCTAssertEqual(json["summary"] as? String, "succeeded", file: file, line: line)
            XCTAssertEqual((json["rejected_objects"] as? [Any])?.count, 0, file: file, line: line)
            XCTAssertEqual((json["standing_issues"] as? [Any])?.count, 0, file: file, line: line)
        }
    }

    private func twoDevices() throws -> (AuthCatRunner, AuthCatRunner) {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try add(second, "bob")
        try enable(first)
        try enable(second)
        settled([first, second])
        for device in [first, second, first] { XCTAssertEqual(try sync(device), 0) }
        return (first, second)
    }

    /// The reproduction of issue 32: a batch of a device that does not exist.
    func testGarbageForAnUnknownDeviceIsForgottenOnceDeleted() throws {
        let (first, second) = try twoDevices()
        let folder = try vaultFolder()
        try assertReportedWhileStandingThenForgotten(
            folder + "/0123456789abcdef/b-0000000001", devices: [first, second])
        try assertReportedWhileStandingThenForgotten(
            folder + "/fedcba9876543210/s-0000000003", devices: [first, second])
        let devices = try XCTUnwrap(try processStatus(first).json["devices_seen"] as? [[String: Any]])
        XCTAssertEqual(devices.count, 2, "a folder of garbage is no device: \(devices)")
    }

    func testGarbageAheadOfAKnownDeviceIsForgottenOnceDeleted() throws {
        let (first, second) = try twoDevices()
        let folder = try vaultFolder()
        let secondID = try thisDeviceID(second)
        // The batch after second's newest, and one far ahead, as seen by first (second's own folder
        // stops second's sync while it stands: nothing of its own is overwritten).
        let newest = try XCTUnwrap(
            remoteFiles().filter { $0.hasPrefix("\(folder)/\(secondID)/b-") }.compactMap { Int($0.suffix(10)) }.max())
        try assertReportedWhileStandingThenForgotten(
            "\(folder)/\(secondID)/b-\(String(format: "%010d", newest + 1))", devices: [first])
        try assertReportedWhileStandingThenForgotten(
            "\(folder)/\(secondID)/s-\(String(format: "%010d", newest + 30))", devices: [first])
        XCTAssertEqual(try sync(second), 0)
        XCTAssertEqual(try processStatus(second).status, 0)

        // Second's real changes still reach first.
        try add(second, "carol")
        settled([second])
        XCTAssertEqual(try sync(second), 0)
        XCTAssertEqual(try sync(first), 0)
        XCTAssertTrue(try labels(first).contains("Example:carol"))
    }

    func testGarbageOfARevokedDeviceIsForgottenOnceDeleted() throws {
        let (first, second) = try twoDevices()
        let third = try makeDevice()
        try enable(third)
        settled([third])
        for device in [third, first, second] { XCTAssertEqual(try sync(device), 0) }
        let thirdID = try thisDeviceID(third)
        let rotated = try first.runAsProcess(["sync", "rotate", "--revoke", thirdID, "--yes"], timeout: 300)
        XCTAssertEqual(rotated.status, 0, rotated.stderr)
        XCTAssertEqual(try sync(second), 0)
        let epochFolder = try XCTUnwrap(
            remoteFiles().compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count > 2 && parts[1].hasPrefix("e-") ? "\(parts[0])/\(parts[1])" : nil
            }.first)
        try assertReportedWhileStandingThenForgotten(
            "\(epochFolder)/\(thirdID)/b-0000000004", devices: [first, second])
        try assertReportedWhileStandingThenForgotten(
            "\(epochFolder)/\(thirdID)/s-0000000001", devices: [first, second])
    }

    /// A batch that opened on second and is then deleted is a rollback, said
    /// until the device concerned repairs it.
    func testARealBatchDeletedAfterItWasReadIsStillReported() throws {
        let (first, second) = try twoDevices()
        let folder = try vaultFolder()
        let firstID = try thisDeviceID(first)
        try add(first, "dave")
        settled([first])
        XCTAssertEqual(try sync(first), 0)
        XCTAssertEqual(try sync(second), 0)
        let newest = try XCTUnwrap(remoteFiles().filter { $0.hasPrefix("\(folder)/\(firstID)/b-") }.max())
        try FileManager.default.removeItem(at: remoteFolder.appendingPathComponent(newest))
        XCTAssertEqual(try sync(second), 4)
        let (code, json) = try processStatus(second)
        XCTAssertEqual(code, 4)
        let issues = try XCTUnwrap(json["standing_issues"] as? [[String: Any]])
        XCTAssertEqual(issues.map { $0["kind"] as? String }, ["rollback"], "\(json)")
        XCTAssertEqual(issues.first?["subject"] as? String, firstID)
        // First writes a snapshot over the hole; then second finds the remote whole.
        _ = try sync(first)
        XCTAssertEqual(try sync(second), 0)
        XCTAssertEqual(try processStatus(second).status, 0)
    }
}
