import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 33 §4: a WebDAV server that takes connections and never answers
/// (a real lighttpd stopped with SIGSTOP). `sync now` and `sync status` wait
/// for it, until their deadline, at no CPU cost: waiting for the network is
/// not a loop. Measured with GNU time; a busy wait used most of a core for
/// the whole wait (2.4 s user and 6.3 s system in 10 s), far above the bound.
final class StoppedServerTests: FaultTestCase {
    /// Far above what starting the program and giving up cost, far below a loop's.
    private static let cpuBoundSeconds = 2.0

    func testWaitingForAStoppedServerCostsNoCPU() throws {
        let folder = scratch.appendingPathComponent("lighttpd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try WebDAVServer(.lighttpd, folder: folder.path)
        defer { server.stop() }
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\n", to: passwordFile)
        let environment = [
            "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path,
            "AUTHCAT_SYNC_DEADLINE": "5",
        ]
        let home = makeHome("a")
        try add(home, "alice", issuer: "A", environment: environment)
        try succeed(
            home, ["sync", "enable", "--remote", "dav://\(server.user)@127.0.0.1:\(server.port)/vault"],
            environment: environment)
        waitForStragglers(under: home.path, timeout: 60)

        server.pause()
        for command in [["sync", "now"], ["sync", "status"]] {
            let (run, _, cpu) = try measured(home, command, environment: environment)
            XCTAssertNotEqual(run.termination, .exited(0), "\(command) with the server stopped: \(run.stdout)")
            XCTAssertLessThan(cpu, Self.cpuBoundSeconds, "\(command) used \(cpu) s of CPU waiting: \(run.stderr)")
        }
        server.resume()
        try succeed(home, ["sync", "now"], environment: environment)
        XCTAssertEqual(try listed(home).map(\.label), ["A:alice"], "local data kept")
    }
}
