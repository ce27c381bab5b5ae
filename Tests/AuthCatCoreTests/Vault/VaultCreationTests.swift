import AuthCatTesting
import Foundation
import GRDB
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

/// Creating a vault is all or nothing, and one at a time.
final class VaultCreationTests: VaultTestCase {
    func testCreationLeavesOnlyTheVaultItsKeyAndItsLock() throws {
        let vault = try makeVault()
        try add(vault, draft("alice"))
        let names = try FileManager.default.contentsOfDirectory(atPath: location.folder.path).sorted()
        XCTAssertEqual(names.filter { !$0.hasPrefix("vault.sqlite-") }, ["vault.key", "vault.lock", "vault.sqlite"])
        XCTAssertEqual(SecureFile.mode(of: location.lockFileURL.path), 0o600)
        let mode = try vault.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
    }

    func testSimultaneousCreationsMakeOneVaultThatKeepsEveryAccount() throws {
        let count = 8
        let errors = ConcurrentList<Error>()
        let (location, clock, drafts) = (location!, clock!, (0..<count).map { draft("account \($0)") })
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do {
                let vault = try Vault.openOrCreate(at: location, deviceName: "device \(index)", clock: clock)
                try vault.write(author: .cli) { try $0.insert(drafts[index]) }
            } catch {
                errors.append(error)
            }
        }
        XCTAssertEqual(errors.elements.map { "\($0)" }, [])
        let vault = try Vault.open(at: location)
        XCTAssertEqual(try vault.accounts().map(\.name).sorted(), (0..<count).map { "account \($0)" }.sorted())
        for account in try vault.accounts() {
            XCTAssertEqual(try vault.secret(for: account.id), SecretBytes(Array("12345678901234567890".utf8)))
        }
    }

    /// What a creation killed part-way leaves: a key file, a temporary
    /// database and its journal, and a log file of a vault deleted earlier.
    func testLeftoversOfAnInterruptedCreationAreCleanedAndTheKeyReused() throws {
        try SecureFile.createFolder(location.folder)
        let key = try SecretBytes.random(count: AEAD.keySize)
        try VaultKeyFile.plain(vaultID: "left-behind", key: key).write(to: location.keyFileURL)
        let leftovers = [
            ".vault.sqlite.creating-1234", ".vault.sqlite.creating-1234-journal", "vault.sqlite-wal",
            "vault.sqlite-shm",
            ".vault.key.5678.tmp",
        ]
        for name in leftovers {
            try Data(repeating: 7, count: 1000).write(to: location.folder.appendingPathComponent(name))
        }
        let vault = try makeVault()
        try add(vault, draft("alice"))
        XCTAssertEqual(vault.identity.vaultID, "left-behind")
        let names = try FileManager.default.contentsOfDirectory(atPath: location.folder.path)
        XCTAssertEqual(names.filter { $0.hasPrefix(".vault.") }, [])
        XCTAssertEqual(try Vault.open(at: location).accounts().map(\.name), ["alice"])
    }

    func testAFailedCreationLeavesNoDatabase() throws {
        try SecureFile.createFolder(location.folder)
        // A wrapped key left behind without its database, and no passphrase to open it.
        let key = try SecretBytes.random(count: AEAD.keySize)
        try VaultKeyFile.wrapped(
            vaultID: "v", key: key, passphrase: SecretBytes(Array("pass phrase".utf8)),
            kdf: try .minimumForTesting()
        ).write(to: location.keyFileURL)
        XCTAssertThrowsError(try makeVault()) { XCTAssertEqual($0 as? VaultError, .passphraseRequired) }
        XCTAssertFalse(location.exists)
        let names = try FileManager.default.contentsOfDirectory(atPath: location.folder.path)
        XCTAssertEqual(names.filter { $0.hasPrefix(".vault.sqlite") }, [])
    }

    /// The header of a whole vault names its length; every cut is refused,
    /// before SQLite reads (and would write back) the missing pages as zeros.
    func testAVaultCutShortByAnyAmountIsRefusedAndLeftAlone() throws {
        let vault = try makeVault()
        for index in 0..<30 { try add(vault, draft("account \(index)")) }
        _ = try vault.database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let whole = try Data(contentsOf: location.databaseURL)
        XCTAssertTrue(DatabaseFileSize.isWhole(atPath: location.databaseURL.path))
        for cut in [1, 2, 17, 99, 100, 4096, 4097] {
            try whole.prefix(whole.count - cut).write(to: location.databaseURL)
            XCTAssertFalse(DatabaseFileSize.isWhole(atPath: location.databaseURL.path), "cut \(cut)")
            XCTAssertThrowsError(try Vault.open(at: location).accounts(), "cut \(cut)") { error in
                XCTAssertEqual(error as? VaultStoreError, .corrupt(location.databaseURL.path), "cut \(cut)")
            }
            XCTAssertEqual(try Data(contentsOf: location.databaseURL), whole.prefix(whole.count - cut), "cut \(cut)")
        }
    }

    /// A checkpoint stopped by a full disk leaves page 1 (with the new size)
    /// in the file and the pages past its end in the log, which SQLite reads.
    func testAShortFileBesideALogThatHoldsPagesIsNotDamage() throws {
        try SecureFile.createFolder(location.folder)
        var page = [UInt8](repeating: 0, count: 4096)
        page.replaceSubrange(0..<16, with: Array("SQLite format 3\u{0}".utf8))
        page[16] = 0x10
        page[27] = 2
        page[31] = 3
        page[95] = 2  // 3 pages of 4096 bytes, valid
        let path = location.databaseURL.path
        try Data(page).write(to: location.databaseURL)
        XCTAssertFalse(DatabaseFileSize.isWhole(atPath: path))
        try Data().write(to: URL(fileURLWithPath: path + "-wal"))
        XCTAssertFalse(DatabaseFileSize.isWhole(atPath: path), "an empty log holds nothing")
        try Data(repeating: 1, count: 4096 + 32).write(to: URL(fileURLWithPath: path + "-wal"))
        XCTAssertTrue(DatabaseFileSize.isWhole(atPath: path))
        try Data(page + page + page).write(to: location.databaseURL)
        XCTAssertTrue(DatabaseFileSize.isWhole(atPath: path))
    }

    func testTheHeaderSizeIsReadAsSQLiteDocumentsIt() {
        var header = [UInt8](repeating: 0, count: 100)
        header.replaceSubrange(0..<16, with: Array("SQLite format 3\u{0}".utf8))
        header[16] = 0x10  // 4096-byte pages
        header[27] = 9  // change counter 9
        header[31] = 3  // three pages
        header[95] = 9  // valid for change 9
        XCTAssertEqual(DatabaseFileSize.expectedLength(header: header), 3 * 4096)
        header[16] = 0
        header[17] = 1  // 1 means 65,536
        XCTAssertEqual(DatabaseFileSize.expectedLength(header: header), 3 * 65_536)
        header[95] = 8  // a size left by an old SQLite, no longer valid
        XCTAssertNil(DatabaseFileSize.expectedLength(header: header))
        XCTAssertNil(DatabaseFileSize.expectedLength(header: Array(repeating: 0, count: 100)))
    }
}

/// Errors collected from several threads.
