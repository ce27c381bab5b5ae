import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

final class VaultTests: VaultTestCase {
    func testCreatesPrivateFolderAndFiles() throws {
        _ = try makeVault()
        XCTAssertEqual(SecureFile.mode(of: location.folder.path), 0o700)
        XCTAssertEqual(SecureFile.mode(of: location.databaseURL.path), 0o600)
        XCTAssertEqual(SecureFile.mode(of: location.keyFileURL.path), 0o600)
        XCTAssertEqual(try location.checkPermissions(), [])
    }

    func testOpenWithoutVaultSaysSo() {
        XCTAssertThrowsError(try Vault.open(at: location)) { error in
            XCTAssertEqual(error as? VaultStoreError, .noVault(location.folder.path))
        }
    }

    func testAccountRoundTripKeepsEveryField() throws {
        let vault = try makeVault()
        let otp = OTPParameters(kind: .hotp, algorithm: .sha512, digits: 8, period: 60, counter: 7)
        let added = try add(
            vault, draft("alice@example.com", issuer: "Ünïcode Bank", otp: otp, tags: ["work", "bank", "work"]))
        let reopened = try Vault.open(at: location, clock: clock)
        XCTAssertEqual(try reopened.accounts(), [added])
        XCTAssertEqual(added.tags, ["bank", "work"])
        XCTAssertEqual(try reopened.secret(for: added.id), SecretBytes(Array("12345678901234567890".utf8)))
    }

    func testSecretsAreNotStoredInTheClear() throws {
        let vault = try makeVault()
        let secret = "a very recognisable secret value"
        try add(vault, draft("alice", secret: secret))
        try add(vault, draft("bob", secret: secret))
        let bytes =
            try Data(contentsOf: location.databaseURL)
            + (FileManager.default.contents(atPath: location.databaseURL.path + "-wal") ?? Data())
        XCTAssertNil(bytes.range(of: Data(secret.utf8)))
    }

    func testSealedSecretIsBoundToItsAccount() throws {
        let vault = try makeVault()
        let alice = try add(vault, draft("alice", secret: "alice secret 123456"))
        let bob = try add(vault, draft("bob", secret: "bob secret 12345678"))
        // Moving Bob's sealed secret onto Alice's row must not yield Bob's secret.
        try vault.database.write { db in
            try db.execute(
                sql: "UPDATE account SET sealedSecret = (SELECT sealedSecret FROM account WHERE id = ?) WHERE id = ?",
                arguments: [bob.id.vaultString, alice.id.vaultString])
        }
        XCTAssertThrowsError(try vault.secret(for: alice.id))
    }

    func testDuplicatesDifferingOnlyInCaseAreRefused() throws {
        let vault = try makeVault()
        try add(vault, draft("Alice", issuer: "GitHub"))
        let before = try snapshotFiles()
        XCTAssertThrowsError(try add(vault, draft("alice", issuer: "github"))) { error in
            XCTAssertEqual(error as? VaultStoreError, .duplicate("github:alice"))
        }
        XCTAssertEqual(try vault.accounts().count, 1)
        XCTAssertEqual(try vault.history().count, 1)
        XCTAssertEqual(try snapshotFiles().keys.sorted(), before.keys.sorted())
    }

    func testInvalidParametersAreRefusedBeforeWriting() throws {
        let vault = try makeVault()
        XCTAssertThrowsError(try add(vault, draft("a", otp: OTPParameters(digits: 11))))
        XCTAssertThrowsError(try add(vault, draft("b", otp: OTPParameters(period: 0))))
        XCTAssertThrowsError(try add(vault, draft("   ")))
        XCTAssertEqual(try vault.accounts(), [])
        XCTAssertEqual(try vault.history(), [])
    }

    func testUpdateRecordsOnlyChangedFields() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice", tags: ["a"]))
        clock.advance(by: 5)
        let updated = try vault.write(author: .cli) {
            try $0.update(account.id, AccountEdit(issuer: "Example", name: "alice2", tags: ["b"]))
        }
        XCTAssertEqual(updated.name, "alice2")
        XCTAssertEqual(updated.updatedAt, clock.now())
        XCTAssertEqual(
            try vault.history(limit: 1).first?.changes,
            [
                HistoryChange(
                    entity: .account, recordID: account.id.vaultString, kind: .update, fields: ["name", "tags"])
            ])
    }

    func testUpdateWithNothingNewRecordsNoHistory() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.write(author: .cli) {
            _ = try $0.update(
                account.id, AccountEdit(name: "alice", secret: SecretBytes(Array("12345678901234567890".utf8))))
        }
        XCTAssertEqual(try vault.history().count, 1)
    }

    func testRenameOntoAnotherAccountIsRefused() throws {
        let vault = try makeVault()
        try add(vault, draft("alice"))
        let bob = try add(vault, draft("bob"))
        XCTAssertThrowsError(try vault.write(author: .cli) { try $0.update(bob.id, AccountEdit(name: "ALICE")) })
        XCTAssertEqual(try vault.account(id: bob.id)?.name, "bob")
    }

    func testDeleteKeepsTheAccountForRestore() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.write(author: .cli) { try $0.delete(account.id) }
        XCTAssertEqual(try vault.accounts(), [])
        XCTAssertNotNil(try vault.accounts(includingDeleted: true).first?.deletedAt)
        let restored = try vault.write(author: .restore) { try $0.undelete(account.id) }
        XCTAssertNil(restored.deletedAt)
        XCTAssertEqual(try vault.secret(for: account.id), SecretBytes(Array("12345678901234567890".utf8)))
        XCTAssertEqual(try vault.history().map(\.author), [.restore, .cli, .cli])
    }

    func testRestoringAnHOTPAccountNeverBringsBackACounterAnotherCopyOfItsSecretUsed() throws {
        let vault = try makeVault()
        let hotp = OTPParameters(kind: .hotp, counter: 2)
        let old = try add(vault, draft("alice", otp: hotp))
        try vault.write(author: .cli) { try $0.delete(old.id) }
        // The same secret added again under another name, and used further.
        let copy = try add(vault, draft("alice-again", otp: OTPParameters(kind: .hotp, counter: 9)))
        try add(vault, draft("other", secret: "abcdefghijabcdefghij", otp: OTPParameters(kind: .hotp, counter: 50)))
        let restored = try vault.write(author: .restore) { try $0.restore(old.id) }
        XCTAssertEqual(restored.otp.counter, 9, "at the copy's counter; not the other secret's 50")
        XCTAssertEqual(try vault.account(id: old.id)?.otp.counter, 9)
        XCTAssertEqual(try vault.account(id: copy.id)?.otp.counter, 9)
    }

    func testRestoringKeepsAHigherCounterOfItsOwn() throws {
        let vault = try makeVault()
        let old = try add(vault, draft("alice", otp: OTPParameters(kind: .hotp, counter: 12)))
        try vault.write(author: .cli) { try $0.delete(old.id) }
        try add(vault, draft("alice-again", otp: OTPParameters(kind: .hotp, counter: 3)))
        XCTAssertEqual(try vault.write(author: .restore) { try $0.restore(old.id) }.otp.counter, 12)
    }

    func testUndeleteBringsBackTheAccountExactlyAsItWas() throws {
        let vault = try makeVault()
        let old = try add(vault, draft("alice", otp: OTPParameters(kind: .hotp, counter: 2)))
        try vault.write(author: .cli) { try $0.delete(old.id) }
        try add(vault, draft("alice-again", otp: OTPParameters(kind: .hotp, counter: 9)))
        XCTAssertEqual(
            try vault.write(author: .restore) { try $0.undelete(old.id) }.otp.counter, 2,
            "sync replays a restore made elsewhere, where the counter was already decided")
    }

    func testRestoreIsRefusedWhenTheNameIsTaken() throws {
        let vault = try makeVault()
        let old = try add(vault, draft("alice"))
        try vault.write(author: .cli) { try $0.delete(old.id) }
        try add(vault, draft("Alice"))
        XCTAssertThrowsError(try vault.write(author: .restore) { try $0.undelete(old.id) }) { error in
            XCTAssertEqual(error as? VaultStoreError, .duplicate("Example:alice"))
        }
    }

    func testFailedTransactionLeavesNoTrace() throws {
        let vault = try makeVault()
        struct Boom: Error {}
        XCTAssertThrowsError(
            try vault.write(author: .import) { writer in
                try writer.insert(draft("one"))
                try writer.insert(draft("two"))
                throw Boom()
            })
        XCTAssertEqual(try vault.accounts(), [])
        XCTAssertEqual(try vault.latestHistoryNumber(), 0)
    }

    func testMissingKeyFileIsReported() throws {
        _ = try makeVault()
        try FileManager.default.removeItem(at: location.keyFileURL)
        XCTAssertThrowsError(try Vault.open(at: location)) { error in
            XCTAssertEqual(error as? VaultError, .missingKeyFile(location.keyFileURL.path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: location.keyFileURL.path))
    }

    func testKeyFileOfAnotherVaultIsRefused() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        let other = VaultLocation(folder: folder.url("other"))
        _ = try Vault.openOrCreate(at: other, deviceName: "x", clock: clock)
        try FileManager.default.removeItem(at: location.keyFileURL)
        try FileManager.default.copyItem(at: other.keyFileURL, to: location.keyFileURL)
        XCTAssertThrowsError(try Vault.open(at: location).secret(for: account.id)) { error in
            XCTAssertEqual(error as? VaultStoreError, .keyDoesNotMatch(location.keyFileURL.path))
        }
    }

    func testGarbageDatabaseIsReportedAndNotOverwritten() throws {
        try SecureFile.createFolder(location.folder)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: location.databaseURL)
        _ = try Vault.openOrCreate(at: VaultLocation(folder: folder.url("other")), deviceName: "x")
        try FileManager.default.copyItem(at: folder.url("other/vault.key"), to: location.keyFileURL)
        XCTAssertThrowsError(try Vault.openOrCreate(at: location, deviceName: "x")) { error in
            XCTAssertEqual(error as? VaultStoreError, .corrupt(location.databaseURL.path))
        }
        XCTAssertEqual(try Data(contentsOf: location.databaseURL), garbage)
    }

    func testTruncatedDatabaseIsReportedAndNotOverwritten() throws {
        let vault = try makeVault()
        for index in 0..<50 { try add(vault, draft("account \(index)")) }
        _ = try vault.database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let full = try Data(contentsOf: location.databaseURL)
        for size in [0, 50, full.count / 2] {
            try full.prefix(size).write(to: location.databaseURL)
            XCTAssertThrowsError(try Vault.open(at: location).accounts(), "size \(size)") { error in
                XCTAssertEqual(error as? VaultStoreError, .corrupt(location.databaseURL.path), "size \(size)")
            }
            XCTAssertEqual(try Data(contentsOf: location.databaseURL), full.prefix(size), "size \(size)")
        }
    }

    func testWritableByOthersIsRefusedReadableIsWarned() throws {
        _ = try makeVault()
        chmod(location.folder.path, 0o750)
        XCTAssertEqual(try location.checkPermissions().count, 1)
        chmod(location.folder.path, 0o770)
        XCTAssertThrowsError(try location.checkPermissions()) { error in
            XCTAssertEqual(error as? VaultError, .unsafePermissions(location.folder.path, mode: 0o770))
        }
    }

    func testAFilesModeIsItsOwnAndALinksIsItsTargets() throws {
        _ = try makeVault()
        chmod(location.keyFilePath, 0o640)
        XCTAssertEqual(try location.checkPermissions().count, 1, "a key file others' group may read is warned")
        chmod(location.keyFilePath, 0o660)
        XCTAssertThrowsError(try location.checkPermissions()) { error in
            XCTAssertEqual(error as? VaultError, .unsafePermissions(location.keyFilePath, mode: 0o660))
        }
        // A link's own mode (0777) says nothing: the mode judged is its target's.
        let target = location.folder.deletingLastPathComponent().appendingPathComponent("key-target").path
        XCTAssertEqual(rename(location.keyFilePath, target), 0)
        XCTAssertEqual(symlink(target, location.keyFilePath), 0)
        chmod(target, 0o600)
        XCTAssertEqual(try location.checkPermissions(), [])
        chmod(target, 0o644)
        XCTAssertEqual(try location.checkPermissions().count, 1)
        chmod(target, 0o666)
        XCTAssertThrowsError(try location.checkPermissions()) { error in
            XCTAssertEqual(error as? VaultError, .unsafePermissions(location.keyFilePath, mode: 0o666))
        }
    }

    func testAVaultOfAnotherUserIsRefused() throws {
        _ = try makeVault()
        let other = geteuid() + 4242
        // As if another user ran authcat on this vault: the folder is not theirs.
        XCTAssertThrowsError(try location.checkOwnership(userID: other)) { error in
            XCTAssertEqual(error as? VaultError, .foreignOwner(location.folder.path, owner: geteuid(), isFolder: true))
            XCTAssertTrue("\(error)".contains("belongs to user \(geteuid()), not you"), "\(error)")
            XCTAssertTrue("\(error)".contains("chown -R \(geteuid()) \(location.folder.path)"), "\(error)")
        }
        guard geteuid() == 0 else {
            throw XCTSkip("giving the vault's files to another user needs root (CI runs the tests as root)")
        }
        for name in ["vault.key", "vault.sqlite-wal", "sync.sqlite"] {
            let path = location.folder.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: path) { try Data().write(to: URL(fileURLWithPath: path)) }
            XCTAssertEqual(lchown(path, 4242, 4242), 0)
            XCTAssertThrowsError(try Vault.open(at: location), name) { error in
                XCTAssertEqual(error as? VaultError, .foreignOwner(path, owner: 4242, isFolder: false), name)
            }
            XCTAssertThrowsError(try location.checkPermissions(), name)
            XCTAssertEqual(lchown(path, 0, 0), 0)
        }
        XCTAssertNoThrow(try Vault.open(at: location))
        // Root's files are refused too when authcat runs as someone else (StrictModes).
        XCTAssertThrowsError(try location.checkOwnership(userID: 4242))
    }

    func testNoVaultIsCreatedInAFolderOfAnotherUser() throws {
        guard geteuid() == 0 else {
            throw XCTSkip("giving a folder to another user needs root (CI runs the tests as root)")
        }
        try FileManager.default.createDirectory(at: location.folder, withIntermediateDirectories: true)
        XCTAssertEqual(chown(location.folder.path, 4242, 4242), 0)
        XCTAssertThrowsError(try makeVault()) { error in
            XCTAssertEqual(error as? VaultError, .foreignOwner(location.folder.path, owner: 4242, isFolder: true))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: location.folder.path), [])
    }

    func testNoVaultFolderIsCreatedWhereAnotherUserCouldReplaceIt() throws {
        let parent = location.folder.deletingLastPathComponent()
        XCTAssertEqual(chmod(parent.path, 0o777), 0)
        XCTAssertThrowsError(try makeVault()) { error in
            XCTAssertEqual(error as? VaultError, .foreignParent(parent.path, owner: geteuid()))
            XCTAssertTrue("\(error)".contains("others can write it"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: location.folder.path))
        // Sticky, as /tmp: nobody else can move the folder away.
        XCTAssertEqual(chmod(parent.path, 0o1777), 0)
        XCTAssertNoThrow(try makeVault())
        // A folder of yours that your group may write (umask 002) is used as before.
        let grouped = VaultLocation(folder: folder.url("grouped/vault"))
        try FileManager.default.createDirectory(at: folder.url("grouped"), withIntermediateDirectories: false)
        XCTAssertEqual(chmod(folder.url("grouped").path, 0o775), 0)
        XCTAssertNoThrow(try Vault.openOrCreate(at: grouped, deviceName: "test", clock: clock))
        guard geteuid() == 0 else { return }
        let other = VaultLocation(folder: folder.url("theirs/vault"))
        try FileManager.default.createDirectory(at: folder.url("theirs"), withIntermediateDirectories: false)
        XCTAssertEqual(chown(folder.url("theirs").path, 4242, 4242), 0)
        XCTAssertThrowsError(try Vault.openOrCreate(at: other, deviceName: "test", clock: clock)) { error in
            XCTAssertEqual(error as? VaultError, .foreignParent(folder.url("theirs").path, owner: 4242))
        }
    }

    func testHistoryNamesAuthorDeviceAndFieldsNeverValues() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        let remote = DeviceReference(id: "remote-device", name: "laptop")
        try vault.write(author: .sync(from: remote)) { _ = try $0.update(account.id, AccountEdit(note: "hello")) }
        let entries = try vault.history()
        XCTAssertEqual(entries.map(\.author), [.sync, .cli])
        XCTAssertEqual(entries.first?.device, remote)
        XCTAssertEqual(entries.last?.device.id, vault.identity.deviceID)
        XCTAssertEqual(entries.first?.changes.first?.fields, ["note"])
        XCTAssertEqual(try vault.history(after: entries.last!.number).map(\.number), [entries.first!.number])
        XCTAssertEqual(try vault.history(recordID: account.id.vaultString).count, 2)
        XCTAssertEqual(try vault.history(recordID: "nothing").count, 0)
    }
}
