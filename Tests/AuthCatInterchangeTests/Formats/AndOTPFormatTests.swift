import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class AndOTPFormatTests: XCTestCase {
    func testPlainBackupWithTagsAndOldStyleLabels() throws {
        let parsed = try AndOTPFormat.parse(Fixture.data("andotp.json"), context: ImportContext())
        assertEntries(parsed, ExpectedAccount.standard(tags: [["Work"], ["Bank ✓", "Work"]]))
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported"])
        XCTAssertEqual(parsed.rejections.first?.position, .entry(6))
        // Its MOTP entry: the message says which types andOTP files bring, and where mOTP comes in.
        let message = try XCTUnwrap(parsed.rejections.first?.message)
        XCTAssertTrue(message.contains("TOTP, HOTP and Steam") && message.contains("--type motp"), message)
    }

    func testWrongShapedBackups() {
        XCTAssertThrowsError(try AndOTPFormat.parse(Data([0x12, 0x00, 0x99, 0xfe]), context: ImportContext())) {
            XCTAssertEqual(
                $0 as? ImportError,
                .malformed(.andOTP, "it is neither JSON nor long enough to be an encrypted backup"))
        }
        XCTAssertThrowsError(try AndOTPFormat.parse(Data(#"{"secret": "A"}"#.utf8), context: ImportContext()))
        XCTAssertThrowsError(try AndOTPFormat.parse(Data(#"[{"secret": "A"}"#.utf8), context: ImportContext()))
    }

    func testWrongTypesInEntries() throws {
        let data = Data(
            #"[{"secret": "JBSWY3DPEHPK3PXP", "label": "a", "digits": 6.5}, {"secret": "JBSWY3DPEHPK3PXP", "label": "b", "tags": "x"}]"#
                .utf8)
        let parsed = try AndOTPFormat.parse(data, context: ImportContext())
        XCTAssertEqual(
            parsed.rejections.map(\.message),
            ["field 'digits' should be a whole number", "field 'tags' should be a list, not a string"])
    }

    // MARK: Encrypted backups (Aegis v3.4.2's test files; password "test")

    private let password = ImportContext.answering("test")

    func testEncryptedBackupOfTheCurrentLayout() throws {
        let parsed = try AndOTPFormat.parse(Fixture.data("andotp_encrypted.bin"), context: password)
        assertEntries(parsed, ExpectedAccount.aegisVectors)
    }

    /// The old layout, whose labels are `Issuer - Issuer:account`.
    func testEncryptedBackupOfTheOldLayout() throws {
        let parsed = try AndOTPFormat.parse(Fixture.data("andotp_encrypted_old.bin"), context: password)
        assertEntries(parsed, ExpectedAccount.aegisVectors(["Deno", "SPDX", "Airbnb", "Issuu", "Air Canada", "WWE"]))
    }

    func testWrongPasswordOrNone() throws {
        try assertWrongPasswordOrNone(.andOTP, ["andotp_encrypted.bin", "andotp_encrypted_old.bin"], wrong: "Test")
    }

    func testBuiltBackupsOfBothLayoutsCarryEveryKindAndTags() throws {
        let plain = try Fixture.data("andotp.json")
        let context = ImportContext.answering("pässwörd 🔑")
        let expected = try AndOTPFormat.parse(plain, context: ImportContext()).entries.map(ExpectedAccount.init)
        XCTAssertEqual(expected.count, 5)
        for data in [
            try sealed(plain, password: "pässwörd 🔑", iterations: 1000), try sealedOld(plain, password: "pässwörd 🔑"),
        ] {
            let parsed = try AndOTPFormat.parse(data, context: context)
            assertEntries(parsed, expected)
            XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported"])
        }
    }

    /// A count beyond the bound is never run: the header is not taken for
    /// the current layout, and only the old one (one hash) is tried.
    func testHostileIterationCountsAreNeverRun() throws {
        let fixture = try Fixture.data("andotp_encrypted.bin")
        XCTAssertEqual(AndOTPFormat.CurrentLayout(fixture)?.iterations, 145_776)
        for count: UInt32 in [0, UInt32(PBKDF2.maximumIterations) + 1, .max] {
            var hostile = fixture
            hostile.replaceSubrange(0..<4, with: withUnsafeBytes(of: count.bigEndian) { Data($0) })
            XCTAssertNil(AndOTPFormat.CurrentLayout(hostile), "\(count)")
            XCTAssertThrowsError(try AndOTPFormat.parse(hostile, context: password)) {
                XCTAssertEqual($0 as? ImportError, .wrongPassword(.andOTP))
            }
        }
    }

    func testDamagedBackups() throws {
        let data = try Fixture.data("andotp_encrypted.bin")
        for damaged in [data.prefix(29), data.dropLast(), data + Data([0]), data.prefix(300)] {
            XCTAssertThrowsError(try AndOTPFormat.parse(Data(damaged), context: password)) { error in
                XCTAssertTrue(error is ImportError, "\(error)")
            }
        }
        var flipped = data
        flipped[40] ^= 0x80
        XCTAssertThrowsError(try AndOTPFormat.parse(flipped, context: password)) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.andOTP))
        }
        // It decrypts, but to something that is not a backup.
        XCTAssertThrowsError(
            try AndOTPFormat.parse(sealedOld(Data("not json".utf8), password: "test"), context: password)
        ) {
            XCTAssertEqual($0 as? ImportError, .malformed(.andOTP, "it decrypts, but what it holds is not JSON"))
        }
    }

    /// `plain` sealed as andOTP 0.6.3 and later seal a backup.
    private func sealed(_ plain: Data, password: String, iterations: UInt32) throws -> Data {
        let salt = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let key = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: password), salt: salt, iterations: UInt64(iterations), hash: .sha1)
        return withUnsafeBytes(of: iterations.bigEndian) { Data($0) } + salt + (try seal(plain, key: key))
    }

    /// An old backup begins with its random nonce, which begins like JSON
    /// (or blank space) now and then: it is still ciphertext, and decrypted.
    func testAnOldBackupWhoseNonceBeginsLikeJSONIsDecrypted() throws {
        let plain = try Fixture.data("andotp.json")
        let expected = try AndOTPFormat.parse(plain, context: ImportContext()).entries.map(ExpectedAccount.init)
        for first in "{[ \n\t".utf8 {
            let nonce = Data([first]) + Data((0..<11).map { _ in UInt8.random(in: 0...255) })
            let data = try sealedOld(plain, password: "test", nonce: nonce)
            XCTAssertEqual(try FormatDetector.detect(data), .andOTP, "\(first)")
            assertEntries(try AndOTPFormat.parse(data, context: password), expected)
        }
    }

    /// `plain` sealed as andOTP before 0.6.3 sealed a backup.
    private func sealedOld(_ plain: Data, password: String, nonce: Data? = nil) throws -> Data {
        try seal(plain, key: SHA256.hash(SecretBytes(utf8: password)), nonce: nonce)
    }

    private func seal(_ plain: Data, key: SecretBytes, nonce: Data? = nil) throws -> Data {
        let nonce = nonce ?? Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let box = try AESGCM.seal(plain, key: key, nonce: nonce)
        return nonce + box.ciphertext + box.tag
    }
}
