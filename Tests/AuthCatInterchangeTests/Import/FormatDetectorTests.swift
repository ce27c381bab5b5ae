@testable import AuthCatInterchange
import Foundation
import XCTest

final class FormatDetectorTests: XCTestCase {
    func testEveryFixtureIsRecognised() throws {
        let cases: [(String, ImportFormat)] = [
            ("otpauth.txt", .otpauth), ("google_migration.txt", .google), ("aegis_plain.json", .aegis),
            ("aegis_encrypted.json", .aegis), ("twofas.2fas", .twoFAS), ("andotp.json", .andOTP),
            ("bitwarden.json", .bitwarden), ("backup_independent.authcat", .authcat),
        ]
        for (name, format) in cases {
            XCTAssertEqual(try FormatDetector.detect(Fixture.data(name)), format, name)
        }
    }

    func testJSONExportAndEncryptedVariants() throws {
        XCTAssertEqual(try FormatDetector.detect(Data(#"{"format": "authcat", "version": 1, "accounts": []}"#.utf8)), .authcat)
        XCTAssertEqual(try FormatDetector.detect(Data(#"{"servicesEncrypted": "x"}"#.utf8)), .twoFAS)
        XCTAssertEqual(try FormatDetector.detect(Data(#"{"encrypted": true, "encKeyValidation_DO_NOT_EDIT": "x"}"#.utf8)), .bitwarden)
        XCTAssertEqual(try FormatDetector.detect(Data("\n  # comment\notpauth-migration://offline?data=AA\n".utf8)), .google)
    }

    func testUnknownAndDamagedFiles() {
        XCTAssertThrowsError(try FormatDetector.detect(Data())) { XCTAssertEqual($0 as? ImportError, .unrecognizedFormat) }
        XCTAssertThrowsError(try FormatDetector.detect(Data("hello world".utf8))) { XCTAssertEqual($0 as? ImportError, .unrecognizedFormat) }
        XCTAssertThrowsError(try FormatDetector.detect(Data(#"{"db": {"entries": ["#.utf8))) { XCTAssertEqual($0 as? ImportError, .damagedJSON) }
        XCTAssertThrowsError(try FormatDetector.detect(Data(#"{"something": 1}"#.utf8))) { XCTAssertEqual($0 as? ImportError, .unrecognizedFormat) }
    }
}
