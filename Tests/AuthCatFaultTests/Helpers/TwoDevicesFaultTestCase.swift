import Foundation
import XCTest

/// Two devices, A and B, that share a folder remote an attacker writes to:
/// A holds one account and made the remote vault, B joined it. The attack
/// tests (forged objects, forged rotations) start from here.
class TwoDevicesFaultTestCase: FaultTestCase {
    var a: URL!
    var b: URL!
    var vaultID = ""

    var remoteFolder: URL { scratch.appendingPathComponent("remote", isDirectory: true) }
    var remoteURL: String { "file://" + remoteFolder.path }
    var vaultFolder: URL { remoteFolder.appendingPathComponent("authcat-\(vaultID)", isDirectory: true) }
    var environment: [String: String] { ["AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        a = makeHome("device-a")
        b = makeHome("device-b")
        try add(a, "alice", issuer: "A", environment: environment)
        try succeed(a, ["sync", "enable", "--remote", remoteURL], environment: environment)
        try succeed(b, ["sync", "enable", "--remote", remoteURL], environment: environment)
        vaultID = try XCTUnwrap(vaultIDs().first)
    }

    /// The remote vaults in the folder (a deleted one's marker folder aside).
    func vaultIDs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: remoteFolder.path)
            .filter { $0.hasPrefix("authcat-") && !$0.hasSuffix(".deleted") }
            .map { String($0.dropFirst("authcat-".count)) }.sorted()
    }
}
