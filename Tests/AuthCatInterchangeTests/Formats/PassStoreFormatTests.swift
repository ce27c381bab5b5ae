import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatInterchange

/// The store's walk and its entries' reading, with entries written in plain
/// text and "decrypted" by reading them as they are: gpg itself runs in
/// `PassStoreImportTests`, through the command line that owns it.
final class PassStoreFormatTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private var root: URL { folder.url.appendingPathComponent("store") }

    private func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private static func plain(_ file: PassStore.File) throws -> SecretBytes {
        SecretBytes(file.contents)
    }

    private func parse(_ decrypt: (PassStore.File) throws -> SecretBytes = plain) throws -> ParsedImport {
        try PassStoreFormat.parse(PassStore(folder: root.path), decrypt: decrypt)
    }

    /// The standard accounts, in every place an entry may keep its code, sorted by path.
    private func writeStandardStore() throws {
        try write(".gpg-id", "ABCDEF\n")
        try write(
            "GitHub/alice@example.com.gpg",
            "hunter2\nlogin: alice\notpauth://totp/GitHub:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub\n")
        try write(
            "bank/li.gpg",
            "otpauth://totp/%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank:%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1?"
                + "secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA256&digits=8&period=60\n")
        try write(
            "example/sha512.gpg",
            "pw\ntotp: otpauth://totp/Example:sha512?secret=\(ExpectedAccount.sha512Secret)&algorithm=SHA512&digits=8\n"
        )
        try write("hotp/bob.gpg", "pw\n\notpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&counter=42\n")
        try write("steam.gpg", "pw\notpauth://steam/Steam:gamer?secret=ONSWG4TFOQ&issuer=Steam\n")
    }

    func testEveryKindOfEntryInEveryPlaceAnEntryKeepsIt() throws {
        try writeStandardStore()
        try write("site/carol.gpg", "pw\nuser: carol\ntotp: MFRG GZDF MZTW Q2LK\n")
        try write("unlabelled/dave.gpg", "pw\notpauth://totp/?secret=JBSWY3DPEHPK3PXP&digits=7\n")
        try write("plain/password.gpg", "only a password\nurl: https://example.com\n")
        let parsed = try parse()
        // In path order: GitHub, bank, example, hotp, site, steam, unlabelled.
        var expected = ExpectedAccount.standard
        expected.insert(ExpectedAccount(issuer: "site", name: "carol", secret: "MFRGGZDFMZTWQ2LK"), at: 4)
        expected.append(ExpectedAccount(issuer: "unlabelled", name: "dave", digits: 7, secret: "JBSWY3DPEHPK3PXP"))
        assertEntries(parsed, expected)
        XCTAssertEqual(
            parsed.entries.map(\.position.description),
            [
                "GitHub/alice@example.com.gpg", "bank/li.gpg", "example/sha512.gpg", "hotp/bob.gpg", "site/carol.gpg",
                "steam.gpg", "unlabelled/dave.gpg",
            ])
        XCTAssertEqual(parsed.warnings, ["1 entry holds no otpauth:// line or totp: field and was left out"])
    }

    func testHiddenFoldersLinksAndOtherFilesAreLeftOut() throws {
        try writeStandardStore()
        try write(".git/objects/leak.gpg", "otpauth://totp/Git:leak?secret=JBSWY3DPEHPK3PXP\n")
        try write(".public-keys/x.gpg", "otpauth://totp/Keys:x?secret=JBSWY3DPEHPK3PXP\n")
        try write("notes.txt", "otpauth://totp/Notes:x?secret=JBSWY3DPEHPK3PXP\n")
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("otpauth://totp/Out:side?secret=JBSWY3DPEHPK3PXP\n".utf8).write(
            to: outside.appendingPathComponent("x.gpg"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("linked"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("x.gpg"), withDestinationURL: outside.appendingPathComponent("x.gpg"))
        let parsed = try parse()
        XCTAssertEqual(parsed.entries.count, 5)
        XCTAssertFalse(parsed.entries.contains { ["Git", "Keys", "Notes", "Out"].contains($0.draft.issuer) })
        XCTAssertEqual(parsed.warnings, ["2 symbolic links were not followed"])
        XCTAssertTrue(PassStore.isMarked(root.path))
        XCTAssertFalse(PassStore.isMarked(outside.path))
    }

    func testAnEntryThatDoesNotDecryptIsRejectedByItsPathAlone() throws {
        try writeStandardStore()
        try write("work/locked.gpg", "otpauth://totp/Work:locked?secret=JBSWY3DPEHPK3PXP\n")
        let parsed = try parse { file in
            if file.name == "work/locked" {
                throw PassStore.DecryptionFailure(
                    reason: "gpg could not decrypt it (gpg: decryption failed: No secret key)")
            }
            return SecretBytes(file.contents)
        }
        XCTAssertEqual(parsed.entries.count, 5)
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            ["work/locked.gpg: gpg could not decrypt it (gpg: decryption failed: No secret key)"])
    }

    func testAFailureOfTheProgramItselfStopsTheWholeStore() throws {
        try writeStandardStore()
        struct NoGPG: Error {}
        XCTAssertThrowsError(try parse { _ in throw NoGPG() }) { XCTAssertTrue($0 is NoGPG) }
    }

    func testBadEntriesAreRejectedWithoutTheirSecrets() throws {
        try write("a/bad-base32.gpg", "pw\ntotp: JBSWY3DP0HPK3PXP\n")
        try write("a/bad-type.gpg", "pw\notpauth://motp/A:x?secret=JBSWY3DPEHPK3PXP\n")
        try write("a/bad-digits.gpg", "pw\notpauth://totp/A:y?secret=JBSWY3DPEHPK3PXP&digits=99\n")
        let parsed = try parse()
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.rejections.map(\.position.description), ["a/bad-base32.gpg", "a/bad-digits.gpg", "a/bad-type.gpg"])
        for rejection in parsed.rejections {
            XCTAssertFalse(rejection.description.contains("JBSWY3DP"), rejection.description)
        }
    }

    func testSizesDepthsAndCountsAreBoundedWhileTheStoreIsRead() throws {
        try write("big.gpg", String(repeating: "x", count: PassStore.maximumFileSize + 1))
        try write("small.gpg", "otpauth://totp/S:s?secret=JBSWY3DPEHPK3PXP\n")
        let parsed = try parse()
        XCTAssertEqual(
            parsed.rejections.map(\.description), ["big.gpg: it is larger than 1 MiB, too large for an entry"])
        XCTAssertEqual(parsed.entries.count, 1)

        let deep = (0...PassStore.maximumDepth).map { "d\($0)" }.joined(separator: "/")
        try write("\(deep)/x.gpg", "")
        XCTAssertThrowsError(try PassStore(folder: root.path)) {
            XCTAssertEqual("\($0)", "this is not a valid password store: its folders nest more than 32 deep")
        }
        try FileManager.default.removeItem(at: root)

        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for index in 0...PassStore.maximumFiles {
            XCTAssertTrue(
                FileManager.default.createFile(atPath: root.appendingPathComponent("\(index).gpg").path, contents: nil))
        }
        XCTAssertThrowsError(try PassStore(folder: root.path)) {
            XCTAssertEqual("\($0)", "this is not a valid password store: it holds more than 10000 entries")
        }
    }

    func testAnUnreadableStoreSaysWhere() {
        XCTAssertThrowsError(try PassStore(folder: root.path)) {
            XCTAssertEqual(
                "\($0)",
                "this is not a valid password store: \(self.root.path) cannot be read (no such file or directory)")
        }
    }

    func testOneDecryptedEntryFromStandardInput() throws {
        let entry = Data("hunter2\notpauth://totp/GitHub:alice@example.com?secret=JBSWY3DPEHPK3PXP\n".utf8)
        assertEntries(try PassStoreFormat.parse(entry, context: ImportContext()), [ExpectedAccount.standard[0]])
        XCTAssertThrowsError(try PassStoreFormat.parse(Data("hunter2\n".utf8), context: ImportContext())) {
            XCTAssertEqual(
                "\($0)", "this is not a valid password store: it holds no otpauth:// line and no totp: field")
        }
    }
}
