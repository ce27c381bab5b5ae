import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class SteamFormatTests: XCTestCase {
    private let sophia = ExpectedAccount(
        issuer: "Steam", name: "Sophia", kind: .steam, digits: 5, secret: "JRZCL47CMXVOQMNPZR2F7J4RGI")
    private let unicode = ExpectedAccount(
        issuer: "Steam", name: "Ünïcødé 🐱", kind: .steam, digits: 5, secret: "ONSWG4TFOQ")

    /// Reading the encrypted SDA folder of `make_steam_encrypted.py`, as the command line does beside a file.
    private func folderContext(password: String = "test-password", fileName: String? = nil) -> ImportContext {
        var context = ImportContext(password: { SecretBytes(utf8: password) })
        context.fileName = fileName
        context.companion = { name in
            Bundle.module.url(forResource: "Fixtures/steam_sda/\(name)", withExtension: nil).flatMap {
                FileManager.default.contents(atPath: $0.path)
            }
        }
        return context
    }

    func testPlainMaFileAndTheAppsAccountsFile() throws {
        for name in ["steam_old.json", "steam.json"] {
            let parsed = try SteamFormat.parse(Fixture.data(name), context: ImportContext())
            assertEntries(parsed, [sophia])
            XCTAssertTrue(parsed.rejections.isEmpty, "\(name): \(parsed.rejections)")
        }
    }

    func testEncryptedManifestWithItsFiles() throws {
        let parsed = try SteamFormat.parse(Fixture.data("steam_sda/manifest.json"), context: folderContext())
        assertEntries(parsed, [sophia, unicode])
    }

    func testOneEncryptedFileWithTheManifestBesideIt() throws {
        let parsed = try SteamFormat.parse(
            Fixture.data("steam_sda/5678.maFile"), context: folderContext(fileName: "5678.maFile"))
        assertEntries(parsed, [unicode])
        XCTAssertThrowsError(
            try SteamFormat.parse(Fixture.data("steam_sda/5678.maFile"), context: ImportContext())
        ) {
            XCTAssertEqual(
                $0 as? ImportError,
                .malformed(
                    .steam,
                    "it is not JSON; an encrypted maFile is read with the manifest.json beside it (or import the manifest)"
                ))
        }
        XCTAssertThrowsError(
            try SteamFormat.parse(Fixture.data("steam_sda/5678.maFile"), context: folderContext(fileName: "9.maFile"))
        ) { XCTAssertEqual($0 as? ImportError, .malformed(.steam, "the manifest.json beside it does not name it")) }
    }

    func testWrongPasswordChangesNothing() throws {
        for (data, name) in [
            (try Fixture.data("steam_sda/manifest.json"), nil),
            (try Fixture.data("steam_sda/1234.maFile"), "1234.maFile"),
        ] {
            XCTAssertThrowsError(try SteamFormat.parse(data, context: folderContext(password: "wrong", fileName: name)))
            {
                XCTAssertEqual($0 as? ImportError, .wrongPassword(.steam))
            }
        }
    }

    func testDamagedAndHostileManifests() throws {
        let manifest = try Fixture.text("steam_sda/manifest.json")
        // A manifest may not send authcat to another folder, nor name files that are not there.
        let elsewhere = manifest.replacingOccurrences(of: "\"1234.maFile\"", with: "\"../1234.maFile\"")
            .replacingOccurrences(of: "\"5678.maFile\"", with: "\"0.maFile\"")
        let parsed = try SteamFormat.parse(Data(elsewhere.utf8), context: folderContext())
        XCTAssertEqual(
            parsed.rejections.map(\.message), Array(repeating: "its file is not beside the manifest", count: 2))
        // A truncated file no longer decrypts.
        var context = folderContext(fileName: "1234.maFile")
        context.companion = { name in
            name == "manifest.json" ? Data(manifest.utf8) : nil
        }
        let file = try Fixture.data("steam_sda/1234.maFile")
        XCTAssertThrowsError(try SteamFormat.parse(file.prefix(file.count - 8), context: context)) {
            XCTAssertNotNil($0 as? ImportError, "\($0)")
        }
        // Each encrypted file costs a PBKDF2: the manifest's count is bounded before the password is asked.
        let entry = #"{"filename":"a","encryption_iv":"AAAAAAAAAAAAAAAAAAAAAA==","encryption_salt":"AAAA"}"#
        let many = #"{"encrypted":true,"entries":["# + Array(repeating: entry, count: 257).joined(separator: ",") + "]}"
        let asked = ImportContext(password: {
            XCTFail("asked for the password")
            return SecretBytes(utf8: "pw")
        })
        XCTAssertThrowsError(try SteamFormat.parse(Data(many.utf8), context: asked)) {
            XCTAssertEqual(
                $0 as? ImportError,
                .malformed(.steam, "its manifest names more than 256 encrypted files, the most authcat reads"))
        }
    }

    func testDamagedMaFiles() throws {
        let cases = [
            #"{"shared_secret":"!!!","account_name":"a"}"#, #"{"shared_secret":"","account_name":"a"}"#,
            #"{"shared_secret":5,"account_name":"a"}"#, #"{"accounts":{"1":3}}"#,
        ]
        for json in cases {
            let parsed = try SteamFormat.parse(Data(json.utf8), context: ImportContext())
            XCTAssertTrue(parsed.entries.isEmpty, json)
            XCTAssertEqual(parsed.rejections.count, 1, json)
        }
        XCTAssertThrowsError(try SteamFormat.parse(Data(#"{"other":1}"#.utf8), context: ImportContext()))
    }
}
