import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// How many requests and bytes a sync costs, and what the remote can see.
final class SyncEngineCostTests: SyncEngineTestCase {
    func testASyncWithNothingNewIsOneListing() async throws {
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        try a.add("GitHub", "alice")
        try await a.enable()
        try await a.sync()
        try await b.enable()
        try await b.sync()
        try await a.sync()
        remote.resetCounts()
        let report = try await a.sync()
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1))
        XCTAssertEqual(report.requests, 1)
    }

    func testAnIncrementalSyncWritesOneSmallObjectWhateverTheVaultSize() async throws {
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        try a.vault.write(author: .import) { writer in
            for index in 0..<300 {
                try writer.insert(
                    AccountDraft(
                        issuer: "Issuer \(index)", name: "user\(index)@example.com",
                        secret: SecretBytes(Array(repeating: UInt8(index % 256), count: 20))))
            }
        }
        try await a.enable()
        try await a.sync()
        let account = try XCTUnwrap(a.vault.accounts().first)
        try a.edit(account.id, AccountEdit(note: "changed"))
        remote.resetCounts()
        let report = try await a.sync()
        XCTAssertLessThanOrEqual(remote.counts.put, 2)
        XCTAssertLessThan(remote.counts.bytesWritten, 4096)
        XCTAssertEqual(report.objectsWritten, remote.counts.put)
        XCTAssertEqual(report.bytesWritten, remote.counts.bytesWritten)
        XCTAssertEqual(remote.counts.list, 1)
    }

    func testObjectNamesAndSizesRevealNoAccount() async throws {
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        try a.add("GitHub", "alice@example.com")
        try a.add("Bank", "a-much-longer-account-name-than-the-other@example.com")
        try await a.enable()
        try await a.sync()
        for (name, data) in remote.storedObjects {
            for word in ["github", "alice", "bank", "example"] {
                XCTAssertFalse(name.lowercased().contains(word), name)
                XCTAssertNil(data.range(of: Data(word.utf8)), "\(name) contains \(word)")
            }
            // The manifest and device key certificates are public and hold no account; only sealed objects are padded.
            guard !name.hasSuffix("/manifest"), !name.contains("/key-") else { continue }
            XCTAssertGreaterThanOrEqual(data.count, 512)
            XCTAssertEqual(data.count & (data.count - 1), 0, "\(name) is \(data.count) bytes, not a power of two")
        }
    }
}
