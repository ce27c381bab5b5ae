import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Yandex and mOTP accounts travel with their PIN, and stay out of the way of devices that predate them.
final class SyncEnginePINTests: SyncEngineTestCase {
    private func addYandex(_ device: SyncTestDevice, pin: String) throws -> Account {
        device.clock.advance(by: 1)
        return try device.vault.write(author: .cli) { writer in
            try writer.insert(
                AccountDraft(
                    issuer: "Yandex", name: "ivan", otp: OTPParameters(kind: .yandex),
                    secret: try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I"), pin: SecretBytes(utf8: pin)))
        }
    }

    func testThePINTravelsWithTheAccountAndItsChanges() async throws {
        let a = try device("a")
        let yandex = try addYandex(a, pin: "7586")
        try a.add("GitHub", "alice")
        try await a.enable()
        try await a.sync()
        let b = try device("b")
        try await b.enable()
        try await b.sync()
        XCTAssertEqual(try b.labels, ["GitHub:alice", "Yandex:ivan"])
        XCTAssertEqual(try b.vault.pin(for: yandex.id), SecretBytes(utf8: "7586"))
        let account = try XCTUnwrap(try b.vault.account(id: yandex.id))
        XCTAssertEqual(
            try b.vault.generateCode(for: account, at: Date(timeIntervalSince1970: 1_581_064_020)).code.value,
            "oactmacq")

        try b.edit(yandex.id, AccountEdit(pin: SecretBytes(utf8: "7587")))
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.vault.pin(for: yandex.id), SecretBytes(utf8: "7587"))
    }

    /// What a device from before Yandex and mOTP decodes: the three old kinds in
    /// `accounts`, and nothing it cannot read there.
    func testObjectsKeepYandexAndMOTPWhereOlderDevicesDoNotLook() throws {
        let state = { (id: String, kind: OTPKind, pin: String?) in
            AccountState(
                id: id, createdAt: 0, counter: 0, issuer: .init(value: "", clock: ChangeSetWriter.unknownTime),
                name: .init(value: "n", clock: ChangeSetWriter.unknownTime),
                otp: .init(
                    value: AccountState.OTPSettings(OTPParameters(kind: kind)), clock: ChangeSetWriter.unknownTime),
                secret: .init(value: "AAAAAAAAAAAAAAAAAAAAAA==", clock: ChangeSetWriter.unknownTime),
                tags: .init(value: [], clock: ChangeSetWriter.unknownTime),
                note: .init(value: "", clock: ChangeSetWriter.unknownTime),
                deleted: .init(value: false, clock: ChangeSetWriter.unknownTime), pin: pin)
        }
        let ids = (1...3).map { "00000000-0000-4000-8000-00000000000\($0)" }
        let set = ChangeSet(
            format: ChangeSet.batchFormat, version: 1, vault: "v", device: "d", deviceName: "n", vaultDevice: "x",
            sequence: 1, previous: "", createdAt: 0,
            accounts: [
                state(ids[0], .totp, nil), state(ids[1], .yandex, "MTIzNA=="), state(ids[2], .motp, "MTIzNA=="),
            ],
            preferences: [])
        let data = try set.encoded()

        struct OldKinds: Decodable {
            struct Account: Decodable {
                struct Settings: Decodable {
                    enum Kind: String, Decodable { case totp, hotp, steam }
                    enum Algorithm: String, Decodable { case sha1, sha256, sha512 }
                    var kind: Kind
                    var algorithm: Algorithm
                }
                struct Otp: Decodable { var value: Settings }
                var id: String
                var otp: Otp
            }
            var accounts: [Account]
        }
        let old = try JSONDecoder().decode(OldKinds.self, from: data)
        XCTAssertEqual(old.accounts.map(\.id), [ids[0]])

        let decoded = try ChangeSet.decode(data, snapshot: false, vault: "v", device: "d", sequence: 1)
        XCTAssertEqual(decoded, set)
        // Without any Yandex or mOTP account, the object is byte for byte what older versions wrote.
        var plain = set
        plain.accounts = [set.accounts[0]]
        XCTAssertFalse(String(decoding: try plain.encoded(), as: UTF8.self).contains("pin"))
    }

    func testAStateWhosePINDoesNotFitItsKindIsRefused() throws {
        let valid = AccountState(
            id: "00000000-0000-4000-8000-000000000001", createdAt: 0, counter: 0,
            issuer: .init(value: "", clock: ChangeSetWriter.unknownTime),
            name: .init(value: "n", clock: ChangeSetWriter.unknownTime),
            otp: .init(value: AccountState.OTPSettings(OTPParameters(kind: .motp)), clock: ChangeSetWriter.unknownTime),
            secret: .init(value: "AAAA", clock: ChangeSetWriter.unknownTime),
            tags: .init(value: [], clock: ChangeSetWriter.unknownTime),
            note: .init(value: "", clock: ChangeSetWriter.unknownTime),
            deleted: .init(value: false, clock: ChangeSetWriter.unknownTime),
            pin: "MTIzNA==")
        XCTAssertNoThrow(try valid.validate())
        var missing = valid
        missing.pin = nil
        XCTAssertThrowsError(try missing.validate())
        var unexpected = valid
        unexpected.otp.value = AccountState.OTPSettings(OTPParameters(kind: .totp))
        XCTAssertThrowsError(try unexpected.validate())
    }
}
