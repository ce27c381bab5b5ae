import Foundation
import XCTest

@testable import AuthCatInterchange

/// Recognising the files of the apps whose backups and databases authcat
/// reads beside the first formats (FreeOTP, Steam, Authy, …).
extension FormatDetectorTests {
    func testAppFixturesAreRecognised() throws {
        let cases: [(String, ImportFormat)] = [
            ("freeotp.xml", .freeOTP), ("freeotp_plus_internal.xml", .freeOTP), ("freeotp_v2_api23.xml", .freeOTP),
            ("freeotp_v2_api34.xml", .freeOTP), ("freeotp_v2_null_algo.xml", .freeOTP),
            ("freeotp_plus.json", .freeOTPPlus), ("steam.json", .steam), ("steam_old.json", .steam),
            ("steam_sda/manifest.json", .steam), ("authy_plain.xml", .authy), ("authy_encrypted.xml", .authy),
            ("battle_net_authenticator.xml", .battleNet), ("duo.json", .duo),
            ("proton_authenticator.json", .protonAuthenticator),
            ("google_authenticator.sqlite", .googleAuthenticatorDatabase),
            ("microsoft_authenticator.sqlite", .microsoftAuthenticator),
        ]
        for (name, format) in cases {
            XCTAssertEqual(try FormatDetector.detect(Fixture.data(name)), format, name)
        }
    }

    func testPreferencesOfAnUnknownAppAreNotRecognised() throws {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map><int name=\"a\" value=\"1\"/></map>"
        XCTAssertThrowsError(try FormatDetector.detect(Data(xml.utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
        XCTAssertThrowsError(try FormatDetector.detect(Data("<?xml version='1.0'?><map>".utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
        XCTAssertThrowsError(try FormatDetector.detect(Fixture.data("hostile_view.sqlite"))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
    }
}
