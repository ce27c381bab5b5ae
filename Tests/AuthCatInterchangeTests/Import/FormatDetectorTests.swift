import Foundation
import XCTest

@testable import AuthCatInterchange

final class FormatDetectorTests: XCTestCase {
    func testEveryFixtureIsRecognised() throws {
        let cases: [(String, ImportFormat)] = [
            ("otpauth.txt", .otpauth), ("google_migration.txt", .google), ("aegis_plain.json", .aegis),
            ("aegis_encrypted.json", .aegis), ("twofas.2fas", .twoFAS), ("andotp.json", .andOTP),
            ("bitwarden.json", .bitwarden), ("backup_independent.authcat", .authcat),
            ("keepassxc.csv", .keepassxc),
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
