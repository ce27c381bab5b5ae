import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// docs/FORMAT.md §5 is enough to read a remote: `scripts/read-sync-remote`,
/// written from the document with Python and libsodium alone, reads what the
/// engine wrote and gets the same accounts as the devices.
final class IndependentReaderTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/read-sync-remote")

    func testTheDocumentedFormatReadsBackWhatTheEngineWrote() async throws {
        let folder = try makeTemporaryFolder().url
        let remotePath = folder.appendingPathComponent("remote").path
        let a = try SyncTestDevice("a", in: folder, remote: try FolderRemote(path: remotePath))
        let b = try SyncTestDevice("b", in: folder, remote: try FolderRemote(path: remotePath))
        let github = try a.add("GitHub", "alice", otp: OTPParameters(kind: .hotp))
        let mail = try a.add("Mail", "alice")
        try await a.enable()
        try await a.sync()
        try b.add("Bank", "bob", otp: OTPParameters(kind: .totp, digits: 8))
        try await b.enable()
        try await b.sync()
        try b.edit(github.id, AccountEdit(tags: ["work"], note: "from b"))
        _ = try b.useHOTP(github.id)
        try a.delete(mail.id)
        for device in [a, b, a, b] { try await device.sync() }

        let rows = try runReader(remotePath, passphrase: SyncTestDevice.passphrase)
        let expected = try a.vault.accounts(includingDeleted: true).sorted { $0.id.vaultString < $1.id.vaultString }
        XCTAssertEqual(rows.count, expected.count)
        for (row, account) in zip(rows, expected) {
            XCTAssertEqual(row["id"] as? String, account.id.vaultString)
            XCTAssertEqual(row["issuer"] as? String, account.issuer)
            XCTAssertEqual(row["name"] as? String, account.name)
            XCTAssertEqual(row["note"] as? String, account.note)
            XCTAssertEqual(row["tags"] as? [String], account.tags)
            XCTAssertEqual(row["digits"] as? Int, account.otp.digits)
            XCTAssertEqual((row["counter"] as? NSNumber)?.uint64Value, account.otp.counter)
            XCTAssertEqual(row["deleted"] as? Bool, account.deletedAt != nil)
            let secret = try XCTUnwrap(Data(base64Encoded: row["secret"] as? String ?? ""))
            XCTAssertEqual(SecretBytes(secret), try a.vault.secret(for: account.id))
        }
    }

    private func runReader(_ remotePath: String, passphrase: String) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, remotePath, "--secrets"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(passphrase.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the reader failed")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }
}
