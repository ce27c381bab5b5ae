import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 32 §4, as an attacker would try it: a WebDAV server on loopback
/// (`HostileWebDAVServer`) that sends listings and objects without end,
/// nests folders without end, names folders outside the configured one, or
/// answers slowly to keep a sync going; and a proxy that records what reaches
/// it. Each `sync now` is the built program under GNU time: it ends (only a
/// generous 120 s bound, never a time assertion), in memory near the 64 MiB
/// bound plus its normal footprint, with the problem named, and local data kept.
final class HostileWebDAVTests: FaultTestCase {
    /// What a hostile run may take beyond an honest sync's peak: one reply at its 64 MiB bound, read and parsed.
    private static let allowanceKiB = 160 * 1024
    /// Whatever the honest footprint: far below the gigabytes the issue saw.
    private static let ceilingKiB = 350 * 1024

    private var server: HostileWebDAVServer!
    /// An honest `sync now`'s peak, measured first in each test.
    private var honestPeakKiB = 0

    private var passwordFile: URL { scratch.appendingPathComponent("webdav-password") }

    private var environment: [String: String] {
        [
            "AUTHCAT_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path,
            "AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path,
        ]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("webdav password 32\n", to: passwordFile)
        server = try HostileWebDAVServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    func testEndlessAndOversizedListingsAreCutAtTheBound() throws {
        let a = try oneDevice()
        for (mode, reason) in [
            (HostileWebDAVServer.Mode.endlessListing, "the reply is larger than the 67108864 bytes allowed"),
            (.oversizedListing(bytes: 64 * 1024 * 1024 + 4096), "the reply is larger than the 67108864 bytes allowed"),
        ] {
            server.mode = mode
            let sync = try bounded(a, ["sync", "now"])
            XCTAssertNotEqual(sync.termination, .exited(0), "\(mode): \(sync.stderr)")
            XCTAssertTrue(sync.stderr.contains(reason), "\(mode): \(sync.stderr)")
            server.mode = .honest
            try expectReported(a, reason)
        }
        try succeed(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(try listed(a).map(\.label), ["A:a"], "local data kept")
    }

    func testAnEndlessObjectIsRefusedAtTheBound() throws {
        let a = try oneDevice()
        let b = makeHome("b")
        try succeed(b, ["sync", "enable", "--remote", server.location()], environment: environment)
        try add(b, "b1", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 60)
        try succeed(b, ["sync", "now"], environment: environment)

        server.mode = .endlessObjects
        let sync = try bounded(a, ["sync", "now"])
        XCTAssertNotEqual(sync.termination, .exited(0), sync.stderr)
        server.mode = .honest
        try expectReported(a, "b-", "not read: the server sends more than the 67108864 bytes allowed")
        XCTAssertEqual(try listed(a).map(\.label), ["A:a"], "local data kept")
        server.touchAll()
        try succeed(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:a", "B:b1"], "read once repaired")
    }

    func testFoldersNestedWithoutEndAreNotWalkedPastTheFormatsDepth() throws {
        let a = try oneDevice()
        for nameLength in [8, 200, 100_000] {
            server.mode = .nestedFolders(nameLength: nameLength)
            let before = server.requests.count
            let sync = try bounded(a, ["sync", "now"])
            let requests = server.requests.count - before
            server.mode = .honest
            XCTAssertNotEqual(sync.termination, .exited(0), "an empty remote is no success: \(sync.stderr)")
            // The base folder and three below it, the deepest that can hold the format's names.
            XCTAssertLessThanOrEqual(requests, 10, "names of \(nameLength) characters: \(requests) requests")
            FaultSettings.record("requests of a sync among endlessly nested folders of \(nameLength)", requests)
        }
        try succeed(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(try listed(a).map(\.label), ["A:a"], "local data kept")
    }

    func testHrefsOutsideTheFolderAreNeverRequested() throws {
        let a = try oneDevice()
        server.mode = .escapingHrefs
        let sync = try bounded(a, ["sync", "now"])
        XCTAssertEqual(sync.termination, .exited(0), sync.stderr)
        let outside = server.requestedPaths.filter {
            $0 != HostileWebDAVServer.base && !$0.hasPrefix(HostileWebDAVServer.base + "/")
        }
        XCTAssertEqual(outside, [], "requests outside \(HostileWebDAVServer.base)")
        XCTAssertFalse(server.requestedPaths.contains { $0.contains("..") || $0.contains("outside") })
        XCTAssertEqual(try listed(a).map(\.label), ["A:a"])
    }

    func testThePasswordNeverGoesThroughAProxy() throws {
        let proxy = try CannedHTTPServer { _ in .bytes(CannedHTTPServer.reply(502)) }
        defer { proxy.stop() }
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        let proxied = environment.merging([
            "http_proxy": proxyURL, "HTTP_PROXY": proxyURL, "https_proxy": proxyURL, "HTTPS_PROXY": proxyURL,
            "all_proxy": proxyURL, "ALL_PROXY": proxyURL,
        ]) { $1 }
        let a = makeHome("a")
        try add(a, "a", issuer: "A", environment: proxied)
        try succeed(a, ["sync", "enable", "--remote", server.location()], environment: proxied)
        try add(a, "a2", issuer: "A", environment: proxied)
        waitForStragglers(under: a.path, timeout: 60)
        try succeed(a, ["sync", "now"], environment: proxied)
        XCTAssertEqual(proxy.requests.map(\.line), [], "the proxy received nothing")
        XCTAssertTrue(
            server.requests.contains { $0.header("authorization")?.hasPrefix("Basic ") == true },
            "the password went straight to the server")
    }

    func testASyncEndsAtItsDeadline() throws {
        let a = try oneDevice()
        // Every reply a byte at a time: no request fails on its own, and the sync can only end by its deadline.
        server.mode = .slow(interval: 0.02)
        let before = server.requests.count
        let sync = try bounded(a, ["sync", "now"], extra: ["AUTHCAT_SYNC_DEADLINE": "2"])
        let requests = server.requests.count - before
        XCTAssertNotEqual(sync.termination, .exited(0), sync.stderr)
        XCTAssertTrue(sync.stderr.contains("did not finish within its deadline of 2 s"), sync.stderr)
        // The deadline stops the request in flight, and nothing is asked after it.
        XCTAssertLessThanOrEqual(requests, 3, "requests after the deadline")
        server.mode = .honest
        try expectReported(a, "did not finish within its deadline of 2 s")
        try succeed(a, ["sync", "now"], environment: environment)
    }

    func testABackgroundPushEndsAtItsDeadline() throws {
        let a = try oneDevice()
        server.mode = .slow(interval: 0.02)
        try add(a, "a2", issuer: "A", environment: environment.merging(["AUTHCAT_SYNC_DEADLINE": "2"]) { $1 })
        waitForStragglers(under: a.path, timeout: 90)
        server.mode = .honest
        try expectReported(a, "did not finish within its deadline of 2 s")
        try succeed(a, ["sync", "now"], environment: environment)
    }

    // MARK: - Helpers

    /// Device A with account A:a, synced once on the honest server, and the peak of that honest sync kept.
    private func oneDevice() throws -> URL {
        let a = makeHome("a")
        try add(a, "a", issuer: "A", environment: environment)
        try succeed(a, ["sync", "enable", "--remote", server.location()], environment: environment)
        waitForStragglers(under: a.path, timeout: 60)
        let (honest, peak, _) = try measured(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(honest.termination, .exited(0), honest.stderr)
        honestPeakKiB = peak
        return a
    }

    /// Runs a command that must end, in memory near an honest sync's.
    private func bounded(
        _ home: URL, _ arguments: [String], extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> FaultRun {
        // An honest sync's peak is in the bound: `honestPeakKiB` plus one reply at its bound.
        try bounded(
            home, arguments, environment: environment.merging(extra) { $1 },
            belowKiB: min(honestPeakKiB + Self.allowanceKiB, Self.ceilingKiB), file: file, line: line)
    }

    /// `sync status --json --offline` is not healthy and its document says every one of `words`.
    private func expectReported(
        _ home: URL, _ words: String..., file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let status = try run(home, ["sync", "status", "--json", "--offline"], environment: environment)
        XCTAssertNotEqual(status.termination, .exited(0), "sync status: \(status.stdout)", file: file, line: line)
        for word in words {
            XCTAssertTrue(
                status.stdout.contains(word), "sync status names \(word): \(status.stdout)", file: file, line: line)
        }
    }
}
