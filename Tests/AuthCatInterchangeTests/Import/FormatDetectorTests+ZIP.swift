import Foundation
import XCTest

@testable import AuthCatInterchange

/// Recognising the exports that are ZIP archives by the files they hold,
/// read from the archive's directory alone.
extension FormatDetectorTests {
    func testZIPExportsAreRecognisedByTheirFiles() throws {
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("onepassword.1pux")), .onePassword)
        XCTAssertEqual(try FormatDetector.detect(EmptyFilesZIP.archive(["export.data"])), .onePassword)
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("proton_pass.zip")), .protonPass)
        // The bomb is recognised without being inflated.
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("zip_bomb.zip")), .onePassword)
    }

    func testOtherAndDamagedZIPArchivesAreNotRecognised() throws {
        XCTAssertThrowsError(try FormatDetector.detect(EmptyFilesZIP.archive(["notes.txt"]))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
        let whole = try Fixture.data("onepassword.1pux")
        XCTAssertThrowsError(try FormatDetector.detect(whole.prefix(whole.count / 2))) {
            XCTAssertEqual($0 as? ImportError, .unreadableArchive("its ZIP archive is damaged or truncated"))
            XCTAssertEqual(
                "\($0)",
                "the file is a ZIP archive that cannot be read: its ZIP archive is damaged or truncated; "
                    + "nothing was imported")
        }
        XCTAssertThrowsError(try FormatDetector.detect(Fixture.data("zip_dotdot.zip"))) {
            XCTAssertEqual($0 as? ImportError, .unreadableArchive(BoundedZIP.Failure.pathOutside.description))
        }
    }

    func testUnzippedExportDataIsRecognised() throws {
        let data = try XCTUnwrap(BoundedZIP(Fixture.data("onepassword.1pux")).contents(of: "export.data"))
        XCTAssertEqual(try FormatDetector.detect(data), .onePassword)
        let proton = try XCTUnwrap(
            BoundedZIP(Fixture.data("proton_pass.zip")).contents(of: ProtonPassFormat.dataPath))
        XCTAssertEqual(try FormatDetector.detect(proton), .protonPass)
    }
}
