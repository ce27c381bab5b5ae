import Foundation
import XCTest

@testable import AuthCatInterchange

/// The one reader of ZIP exports: what it reads, and every hostile archive it
/// refuses before (or while) inflating, with a one-line reason.
final class BoundedZIPTests: XCTestCase {
    func testReadsTheDirectoryAndAFile() throws {
        let archive = try BoundedZIP(Fixture.data("onepassword.1pux"))
        XCTAssertEqual(
            archive.entries.map(\.path),
            ["export.attributes", "export.data", "files/abcdefghijklmnopqrstuvwxyz-recovery.txt"])
        XCTAssertTrue(archive.entries.allSatisfy(\.isFile))
        let attributes = try XCTUnwrap(archive.contents(of: "export.attributes"))
        XCTAssertEqual(attributes.count, archive.entries[0].declaredSize)
        XCTAssertTrue(String(decoding: attributes, as: UTF8.self).contains("1Password Unencrypted Export"))
        XCTAssertNil(try archive.contents(of: "missing.json"))
        XCTAssertNil(try archive.contents(of: "files"), "a folder is not a file")
    }

    func testAMissingFileIsNil() throws {
        let archive = try BoundedZIP(EmptyFilesZIP.archive(["export.attributes"]))
        XCTAssertEqual(archive.entries.map(\.path), ["export.attributes"])
        XCTAssertEqual(try archive.contents(of: "export.attributes"), Data())
        XCTAssertNil(try archive.contents(of: OnePasswordFormat.dataPath))
    }

    func testAZipBombStopsAtItsDeclaredSize() throws {
        let archive = try BoundedZIP(Fixture.data("zip_bomb.zip"))
        XCTAssertEqual(archive.entries.first?.declaredSize, 1000)
        XCTAssertThrowsError(try archive.contents(of: "export.data")) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .inflatesPastItsSize("export.data"))
            XCTAssertEqual(
                "\($0)", "its file 'export.data' holds more than its header says (a zip bomb?)")
        }
    }

    /// A deflate stream that runs to the archive's end without ending: an
    /// error at once (ZIPFoundation 0.9.20 loops forever on this file).
    func testADeflateStreamThatNeverEndsIsDamaged() throws {
        let archive = try BoundedZIP(Fixture.data("zip_runaway.zip"))
        XCTAssertThrowsError(try archive.contents(of: "export.data")) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .damaged)
        }
    }

    func testTooManyEntriesAreRefusedBeforeAnyIsRead() throws {
        let paths = (0...BoundedZIP.maximumEntries).map { "files/\($0)" }
        XCTAssertNoThrow(try BoundedZIP(EmptyFilesZIP.archive(Array(paths.dropLast()))))
        XCTAssertThrowsError(try BoundedZIP(EmptyFilesZIP.archive(paths))) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .tooManyEntries)
            XCTAssertEqual("\($0)", "its ZIP archive holds more than 10000 files")
        }
    }

    func testPathsOutsideTheArchiveAreRefused() throws {
        XCTAssertThrowsError(try BoundedZIP(Fixture.data("zip_dotdot.zip"))) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .pathOutside)
        }
        for path in ["/etc/passwd", "files/../../x", "..\\x"] {
            XCTAssertThrowsError(try BoundedZIP(EmptyFilesZIP.archive(["export.data", path])), path) {
                XCTAssertEqual($0 as? BoundedZIP.Failure, .pathOutside, path)
            }
        }
        XCTAssertNoThrow(try BoundedZIP(EmptyFilesZIP.archive(["files/a..b", "..x"])))
    }

    func testDeclaredSizesAreBoundedBeforeInflating() throws {
        // The bomb's header, rewritten to declare one byte more than an entry may hold.
        var data = try Fixture.data("zip_bomb.zip")
        let size = withUnsafeBytes(of: UInt32(BoundedZIP.maximumEntrySize + 1).littleEndian) { Data($0) }
        data.replaceSubrange(22..<26, with: size)
        let central = try XCTUnwrap(data.range(of: Data([0x50, 0x4b, 0x01, 0x02])))
        data.replaceSubrange((central.lowerBound + 24)..<(central.lowerBound + 28), with: size)
        XCTAssertThrowsError(try BoundedZIP(data)) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .entryTooLarge("export.data"))
            XCTAssertEqual("\($0)", "its file 'export.data' is larger than 64 MiB")
        }
    }

    func testTruncatedAndDamagedArchives() throws {
        let whole = try Fixture.data("onepassword.1pux")
        for cut in [whole.count - 1, whole.count / 2, 30, 4] {
            XCTAssertThrowsError(try BoundedZIP(whole.prefix(cut)).contents(of: "export.data"), "\(cut)") {
                XCTAssertEqual($0 as? BoundedZIP.Failure, .damaged, "\(cut)")
            }
        }
        // A flipped byte in export.data's compressed bytes: inflating fails, or its checksum does.
        let start = try XCTUnwrap(whole.range(of: Data("export.data".utf8))).upperBound
        var flipped = whole
        flipped[start + 40] ^= 0xff
        XCTAssertThrowsError(try BoundedZIP(flipped).contents(of: "export.data")) {
            XCTAssertEqual($0 as? BoundedZIP.Failure, .damaged)
        }
    }

    func testRecognisesZIPByItsSignature() throws {
        XCTAssertTrue(BoundedZIP.looksLike(try Fixture.data("onepassword.1pux")))
        XCTAssertTrue(BoundedZIP.looksLike(EmptyFilesZIP.archive([])))
        XCTAssertFalse(BoundedZIP.looksLike(Data("PK".utf8)))
        XCTAssertFalse(BoundedZIP.looksLike(Data("{}".utf8)))
    }
}
