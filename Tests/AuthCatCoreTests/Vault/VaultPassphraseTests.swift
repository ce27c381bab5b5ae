import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

extension VaultTestCase {
    /// The vault, opened with a passphrase provider that answers `passphrase`.
    func open(_ passphrase: String) throws -> Vault {
        try Vault.open(at: location, clock: clock, passphrase: { SecretBytes(utf8: passphrase) })
    }
}

final class VaultPassphraseTests: VaultTestCase {
    func testPassphraseWrapsTheKeyAndUnlocksIt() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "correct horse"), kdf: .minimumForTesting())
        XCTAssertTrue(try vault.hasPassphrase())
        let keyFile = try String(contentsOf: location.keyFileURL, encoding: .utf8)
        XCTAssertTrue(keyFile.contains("\"protection\" : \"passphrase\""))
        XCTAssertFalse(keyFile.contains("\"key\""))
        XCTAssertEqual(
            try open("correct horse").secret(for: account.id), SecretBytes(Array("12345678901234567890".utf8)))
    }

    func testWrongPassphraseChangesNothing() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "correct horse"), kdf: .minimumForTesting())
        let before = try snapshotFiles()
        XCTAssertThrowsError(try open("wrong").secret(for: account.id)) { error in
            XCTAssertEqual(error as? VaultError, .wrongPassphrase)
        }
        XCTAssertThrowsError(try open("wrong").removePassphrase())
        XCTAssertEqual(try snapshotFiles(), before)
    }

    func testLabelsNeedNoPassphrase() throws {
        let vault = try makeVault()
        try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "pw"), kdf: .minimumForTesting())
        let locked = try Vault.open(at: location, clock: clock)
        XCTAssertEqual(try locked.accounts().map(\.name), ["alice"])
        XCTAssertThrowsError(try add(locked, draft("bob"))) { error in
            XCTAssertEqual(error as? VaultError, .passphraseRequired)
        }
    }

    func testChangeAndRemove() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        XCTAssertThrowsError(try vault.setPassphrase(SecretBytes(utf8: "two"))) { error in
            XCTAssertEqual(error as? VaultStoreError, .passphraseAlreadySet)
        }
        try open("one").changePassphrase(to: SecretBytes(utf8: "two"), kdf: .minimumForTesting())
        XCTAssertThrowsError(try open("one").secret(for: account.id))
        try open("two").removePassphrase()
        XCTAssertFalse(try vault.hasPassphrase())
        XCTAssertNoThrow(try Vault.open(at: location).secret(for: account.id))
    }
}

/// Two processes changing the passphrase at once: the second one, which
/// unlocked with a passphrase that is no longer current, changes nothing.
final class VaultPassphraseRaceTests: VaultTestCase {
    func testAChangeMadeMeanwhileIsNeverUndone() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        let first = try open("one")
        let second = try open("one")
        try first.unlock()
        try second.unlock()
        try first.changePassphrase(to: SecretBytes(utf8: "two"), kdf: .minimumForTesting())
        let afterFirst = try Data(contentsOf: location.keyFileURL)
        XCTAssertThrowsError(try second.changePassphrase(to: SecretBytes(utf8: "three"), kdf: .minimumForTesting())) {
            XCTAssertEqual($0 as? VaultStoreError, .keyFileChanged)
        }
        XCTAssertThrowsError(try second.removePassphrase()) { XCTAssertEqual($0 as? VaultStoreError, .keyFileChanged) }
        XCTAssertEqual(try Data(contentsOf: location.keyFileURL), afterFirst)
        XCTAssertNoThrow(try open("two").secret(for: account.id))
    }

    func testASecondSetFindsTheFirstUnderTheLock() throws {
        let vault = try makeVault()
        let other = try Vault.open(at: location, clock: clock)
        try vault.unlock()
        try other.unlock()
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        XCTAssertThrowsError(try other.setPassphrase(SecretBytes(utf8: "two"), kdf: .minimumForTesting())) {
            XCTAssertEqual($0 as? VaultStoreError, .passphraseAlreadySet)
        }
        XCTAssertNoThrow(try open("one").unlock())
    }
}

/// `Vault.keepUnlocked` and the kernel keyring.
final class VaultUnlockTests: VaultTestCase {
    override func tearDownWithError() throws {
        if let vault = try? Vault.open(at: location) { vault.lock() }
        try super.tearDownWithError()
    }

    /// The background push gets the key only when nothing else would give it:
    /// never for a plain key file, never while the keyring holds it.
    func testTheKeyIsHandedToDetachedWorkOnlyWhenUnwrappedWithThePassphrase() throws {
        let vault = try makeVault()
        try vault.unlock()
        XCTAssertNil(vault.keyForDetachedWork(), "a plain key file serves the detached process by itself")

        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        let typed = try open("one")
        try typed.unlock()
        XCTAssertNotNil(typed.keyForDetachedWork(), "unwrapped through the passphrase closure")

        try typed.keepUnlocked(forSeconds: 600)
        XCTAssertNil(typed.keyForDetachedWork(), "the keyring holds it")
        let fromKeyring = try Vault.open(at: location, clock: clock)
        try fromKeyring.unlock()
        XCTAssertNil(fromKeyring.keyForDetachedWork())
    }

    func testAnUnlockedVaultNeedsNoPassphraseUntilLocked() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        let asking = try Vault.open(at: location, clock: clock, passphrase: { SecretBytes(utf8: "one") })
        let until = try asking.keepUnlocked(forSeconds: 600)
        XCTAssertEqual(until, clock.now().addingTimeInterval(600))
        let entry = try XCTUnwrap(VaultKeyring.entry(vaultID: vault.identity.vaultID))
        XCTAssertEqual(entry.expiresAt.timeIntervalSince1970, until.timeIntervalSince1970, accuracy: 1)
        let silent = try Vault.open(at: location, clock: clock)
        XCTAssertEqual(try silent.secret(for: account.id), SecretBytes(Array("12345678901234567890".utf8)))
        XCTAssertTrue(silent.lock())
        XCTAssertNil(silent.unlockedUntil())
        XCTAssertThrowsError(try Vault.open(at: location, clock: clock).secret(for: account.id)) {
            XCTAssertEqual($0 as? VaultError, .passphraseRequired)
        }
    }

    /// /proc/keys lists each key with its timeout ("perm" for none): the vault
    /// key is there once, and never without its timeout, also after a second
    /// `unlock` replaced the first.
    func testTheKeptKeyIsOneKeyAndAlwaysHasItsTimeout() throws {
        let vault = try makeVault()
        let vaultID = vault.identity.vaultID
        defer { VaultKeyring.forget(vaultID: vaultID) }
        for seconds in [60, 600] {
            try VaultKeyring.store(
                try SecretBytes.random(count: AEAD.keySize), vaultID: vaultID, seconds: seconds, now: Date())
            let listed = try String(contentsOfFile: "/proc/keys", encoding: .utf8)
                .split(separator: "\n").filter { $0.hasSuffix("authcat:vault-key:\(vaultID): \(AEAD.keySize + 28)") }
                // The one replaced may linger a moment, flagged invalidated ("i"), until the kernel collects it.
                .filter { !($0.split(separator: " ").dropFirst().first?.contains("i") ?? false) }
            XCTAssertEqual(listed.count, 1, "\(listed)")
            let timeout = listed.first?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first
            XCTAssertNotNil(timeout)
            XCTAssertNotEqual(timeout, "perm", "\(listed)")
        }
    }

    func testADurationOutsideOneSecondToThirtyDaysIsRefused() throws {
        let vault = try makeVault()
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        let asking = try open("one")
        for seconds in [0, -1, VaultKeyring.longestDuration + 1] {
            XCTAssertThrowsError(try asking.keepUnlocked(forSeconds: seconds)) {
                XCTAssertEqual($0 as? VaultKeyringError, .durationOutOfRange(seconds))
            }
        }
        XCTAssertNil(asking.unlockedUntil())
    }

    func testAVaultWithoutPassphraseCannotBeUnlocked() throws {
        let vault = try makeVault()
        XCTAssertThrowsError(try vault.keepUnlocked(forSeconds: 60)) {
            XCTAssertEqual($0 as? VaultStoreError, .noPassphraseSet)
        }
        XCTAssertNil(vault.unlockedUntil())
    }

    func testAKeyInTheKeyringThatDoesNotOpenTheVaultIsIgnored() throws {
        let vault = try makeVault()
        try vault.setPassphrase(SecretBytes(utf8: "one"), kdf: .minimumForTesting())
        try VaultKeyring.store(
            try SecretBytes.random(count: AEAD.keySize), vaultID: vault.identity.vaultID, seconds: 60, now: Date())
        XCTAssertThrowsError(try Vault.open(at: location, clock: clock).unlock()) {
            XCTAssertEqual($0 as? VaultError, .passphraseRequired)
        }
        XCTAssertNoThrow(try Vault.open(at: location, clock: clock, passphrase: { SecretBytes(utf8: "one") }).unlock())
    }
}
