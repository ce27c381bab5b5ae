import AuthCatTestSupport
import Foundation
import XCTest

/// A WebDAV server whose disk is full (a small tmpfs behind it), driven by
/// the built program: the sync fails with one clear line and status `error`,
/// nothing local is lost, nothing half-written stays on the server, and once
/// space is free the next sync sends everything. Apache's mod_dav answers
/// 507 Insufficient Storage; lighttpd answers 500 when the body it streams to
/// disk cannot be written (507 only for small bodies): the outcome must not
/// depend on the status.
final class WebDAVQuotaTests: FaultTestCase {
    func testAFullApacheServerIsAClearErrorAndNothingIsLost() throws {
        try fullServer(.apache)
    }

    func testAFullLighttpdServerIsAClearErrorAndNothingIsLost() throws {
        try fullServer(.lighttpd)
    }

    private func fullServer(_ kind: WebDAVServer.Kind) throws {
        let disk = try TmpfsMount(path: scratch.appendingPathComponent("dav").path, kilobytes: 1024)
        defer {
            waitForStragglers(under: disk.path, timeout: 20)
            disk.unmount()
        }
        let remote = try TestNetworkRemote(.webdav, scratch: scratch, documentRoot: disk.path, serverKind: kind)
        defer { remote.stop() }
        let server = try XCTUnwrap(remote.server)
        let environment = remote.environment.merging(["AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path]) { $1 }
        let home = makeHome()
        try succeed(home, ["add", "first", "--issuer", "Q"], stdin: Self.rfcSecret + "\n")
        try succeed(home, ["sync", "enable", "--remote", remote.location], environment: environment)

        // Enough accounts that the batch is larger than what lighttpd keeps in memory (64 KiB).
        let count = 600
        let uris = (0..<count).map { "otpauth://totp/Bulk:account\($0)?secret=\(Self.rfcSecret)&issuer=Bulk" }
        let importFile = try inputFile(uris.joined(separator: "\n") + "\n")
        // Full first: the import's background push (with the password, as a user's would have) meets the full disk too.
        try disk.fill(leaving: 4096)
        let before = remote.files()
        try succeed(home, ["import", importFile, "--format", "otpauth"], environment: environment)

        let full = try run(home, ["sync", "now"], environment: environment)
        XCTAssertEqual(full.termination, .exited(1), full.stderr)
        // Besides the note that it waited for the import's background push: one line.
        let errors = full.stderrLines.filter { !$0.contains("waiting for another sync") }
        XCTAssertEqual(errors.count, 1, "one line: \(full.stderr)")
        XCTAssertTrue(errors.allSatisfy { $0.hasPrefix("authcat: ") }, full.stderr)
        XCTAssertTrue(full.stderr.contains("nothing was lost"), full.stderr)
        XCTAssertTrue(full.stderr.contains("free some space"), full.stderr)
        XCTAssertFalse(full.stderr.contains(server.password))
        print("\(kind.rawValue) on a full disk: \(full.stderr)")
        // The import's background push may still be running: wait until no run is in progress.
        var summary: String?
        let deadline = Date().addingTimeInterval(60)
        repeat {
            let status = try run(home, ["sync", "status", "--json", "--offline"], environment: environment)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            summary = json["summary"] as? String
        } while summary == "in progress" && Date() < deadline
        XCTAssertEqual(summary, "error")
        XCTAssertEqual(remote.files(), before, "nothing half-written stays on the server")
        let listed = try succeed(home, ["list"]).stdoutLines
        XCTAssertEqual(listed.count, count + 1, "every local account is still there")

        disk.free()
        try succeed(home, ["sync", "now"], environment: environment)
        let other = makeHome("other")
        try succeed(other, ["sync", "enable", "--remote", remote.location], environment: environment)
        XCTAssertEqual(try succeed(other, ["list"]).stdoutLines.count, count + 1, "the other device got everything")
    }
}
