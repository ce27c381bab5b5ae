import AuthCatTestSupport
import Foundation
import XCTest

/// A WebDAV server whose disk is full (Apache's mod_dav on a small tmpfs,
/// which answers 507 Insufficient Storage), driven by the built program: the
/// sync fails with a clear error and status `error`, nothing local is lost,
/// and once space is free the next sync sends everything.
final class WebDAVQuotaTests: FaultTestCase {
    func testAFullServerIsAClearErrorAndNothingIsLost() throws {
        let disk = try TmpfsMount(path: scratch.appendingPathComponent("dav").path, kilobytes: 1024)
        defer {
            waitForStragglers(under: disk.path, timeout: 20)
            disk.unmount()
        }
        let serverFolder = scratch.appendingPathComponent("apache").path
        try FileManager.default.createDirectory(atPath: serverFolder, withIntermediateDirectories: true)
        let server = try WebDAVServer(.apache, folder: serverFolder, documentRoot: disk.path)
        defer { server.stop() }
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\n", to: passwordFile)
        let environment = [
            "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path,
        ]
        let home = makeHome()
        try succeed(home, ["add", "first", "--issuer", "Q"], stdin: Self.rfcSecret + "\n")
        try succeed(
            home, ["sync", "enable", "--remote", "dav://\(server.user)@127.0.0.1:\(server.port)/authcat"],
            environment: environment)

        let uris = (0..<300).map { "otpauth://totp/Bulk:account\($0)?secret=\(Self.rfcSecret)&issuer=Bulk" }
        let importFile = try inputFile(uris.joined(separator: "\n") + "\n")
        // Full first: the import's background push (with the password, as a user's would have) meets the full disk too.
        try disk.fill(leaving: 4096)
        try succeed(home, ["import", importFile, "--format", "otpauth"], environment: environment)

        let full = try run(home, ["sync", "now"], environment: environment)
        XCTAssertEqual(full.termination, .exited(1), full.stderr)
        XCTAssertTrue(full.stderr.contains("no space left"), full.stderr)
        XCTAssertFalse(full.stderr.contains(server.password))
        // The import's background push may still be running: wait until no run is in progress.
        var summary: String?
        let deadline = Date().addingTimeInterval(60)
        repeat {
            let status = try run(home, ["sync", "status", "--json", "--offline"], environment: environment)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            summary = json["summary"] as? String
        } while summary == "in progress" && Date() < deadline
        XCTAssertEqual(summary, "error")
        let listed = try succeed(home, ["list"]).stdoutLines
        XCTAssertEqual(listed.count, 301, "every local account is still there")

        disk.free()
        try succeed(home, ["sync", "now"], environment: environment)
        let other = makeHome("other")
        try succeed(
            other, ["sync", "enable", "--remote", "dav://\(server.user)@127.0.0.1:\(server.port)/authcat"],
            environment: environment)
        XCTAssertEqual(try succeed(other, ["list"]).stdoutLines.count, 301, "the other device got everything")
    }
}
