import Foundation
import XCTest

@testable import AuthCatInterchange

final class FormatDetectorTests: XCTestCase {
    func testEveryFixtureIsRecognised() throws {
        let cases: [(String, ImportFormat)] = [
            ("otpauth.txt", .otpauth), ("google_migration.txt", .google), ("aegis_plain.json", .aegis),
            ("aegis_encrypted.json", .aegis), ("twofas.2fas", .twoFAS), ("andotp.json", .andOTP),
            ("bitwarden.json", .bitwarden), ("backup_independent.authcat", .authcat),
            ("2fas_authenticator_plain.2fas", .twoFAS), ("2fas_authenticator_plain_v3.2fas", .twoFAS),
            ("2fas_authenticator_plain_v4.2fas", .twoFAS), ("2fas_authenticator_encrypted.2fas", .twoFAS),
            ("2fas_authenticator_encrypted_v3.2fas", .twoFAS), ("2fas_authenticator_encrypted_v4.2fas", .twoFAS),
            ("andotp_encrypted.bin", .andOTP), ("andotp_encrypted_old.bin", .andOTP),
            ("bitwarden_encrypted_pbkdf2.json", .bitwarden), ("bitwarden_encrypted_argon2id.json", .bitwarden),
            ("stratum_plain.json", .stratum), ("stratum_encrypted.bin", .stratum),
            ("stratum_encrypted_legacy.bin", .stratum), ("ente_encrypted.json", .ente),
            ("keepassxc.csv", .keepassxc), ("keepassxc.xml", .keepassXML), ("freeotp.xml", .freeOTP),
            ("freeotp_plus_internal.xml", .freeOTP), ("authy_plain.xml", .authy),
            ("battle_net_authenticator.xml", .battleNet), ("totp_authenticator.bin", .totpAuthenticator),
            ("totp_authenticator_internal.xml", .totpAuthenticator), ("lastpass.json", .lastPass),
            ("lastpass_android.json", .lastPass), ("lastpass_ios.json", .lastPass), ("steam.json", .steam),
        ]
        for (name, format) in cases {
            XCTAssertEqual(try FormatDetector.detect(Fixture.data(name)), format, name)
        }
    }

    func testJSONExportAndEncryptedVariants() throws {
        XCTAssertEqual(
            try FormatDetector.detect(Data(#"{"format": "authcat", "version": 1, "accounts": []}"#.utf8)), .authcat)
        XCTAssertEqual(try FormatDetector.detect(Data(#"{"servicesEncrypted": "x"}"#.utf8)), .twoFAS)
        XCTAssertEqual(
            try FormatDetector.detect(Data(#"{"encrypted": true, "encKeyValidation_DO_NOT_EDIT": "x"}"#.utf8)),
            .bitwarden)
        XCTAssertEqual(
            try FormatDetector.detect(Data("\n  # comment\notpauth-migration://offline?data=AA\n".utf8)), .google)
    }

    /// Binary that no format claims by a signature is taken for an encrypted
    /// andOTP backup; text, even with odd characters, is not.
    func testBinaryIsTakenForAnEncryptedAndOTPBackup() throws {
        XCTAssertEqual(try FormatDetector.detect(Data([0x00, 0x02, 0x39, 0x70, 0x9d])), .andOTP)
        XCTAssertEqual(try FormatDetector.detect(Data("otpauth://totp/a\u{1}".utf8)), .andOTP)
        let text = "# Zoë's 🔑 codes\notpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP\n"
        XCTAssertEqual(try FormatDetector.detect(Data(text.utf8)), .otpauth)
        // UTF-16 text is not recognised, but not taken for ciphertext either.
        XCTAssertThrowsError(try FormatDetector.detect(Data([0xff, 0xfe, 0x6f, 0x00, 0x74, 0x00]))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
        // A character cut by the 4 KiB window is still text.
        let long = String(repeating: "#", count: 4095) + "é\n"
        XCTAssertThrowsError(try FormatDetector.detect(Data(long.utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
    }

    func testUnknownAndDamagedFiles() {
        XCTAssertThrowsError(try FormatDetector.detect(Data())) { XCTAssertEqual($0 as? ImportError, .empty) }
        XCTAssertThrowsError(try FormatDetector.detect(Data(" \n\r\n\t".utf8))) {
            XCTAssertEqual($0 as? ImportError, .empty)
        }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        XCTAssertThrowsError(try FormatDetector.detect(png)) { XCTAssertEqual($0 as? ImportError, .image("PNG")) }
        XCTAssertThrowsError(try FormatDetector.detect(Data([0xFF, 0xD8, 0xFF, 0xE0]))) {
            XCTAssertEqual($0 as? ImportError, .image("JPEG"))
        }
        XCTAssertThrowsError(try FormatDetector.detect(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8))) {
            XCTAssertEqual($0 as? ImportError, .image("WebP"))
        }
        XCTAssertThrowsError(try FormatDetector.detect(Data("hello world".utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
        XCTAssertThrowsError(try FormatDetector.detect(Data(#"{"db": {"entries": ["#.utf8))) {
            XCTAssertEqual($0 as? ImportError, .damagedJSON)
        }
        XCTAssertThrowsError(try FormatDetector.detect(Data(#"{"something": 1}"#.utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
    }
}
