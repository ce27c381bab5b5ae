import Foundation
import XCTest

/// `add`, `code` and `show --uri` for Yandex and mOTP accounts, non-canonical
/// Base32 lengths in `add` and `import`, and `code --at` before 1970.
final class PINKindsCommandTests: AuthCatTestCase {
    /// Aegis's YAOTPTest vector: the 42-character form with its checksum, PIN 7586.
    private static let yandexSecret = "LA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI"

    private func addPiped(_ arguments: [String], _ input: String) throws -> AuthCatResult {
        try authcat.run(["add"] + arguments, stdin: Data(input.utf8))
    }

    func testYandexAddCodeAndShow() throws {
        let result = try addPiped(["ivan", "--issuer", "Yandex", "--type", "yandex"], "\(Self.yandexSecret)\n7586\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try succeed(["code", "ivan", "--at", "1581064020"]), "oactmacq\n")
        XCTAssertEqual(try succeed(["code", "ivan", "--at", "1581090810"]), "wemdwrix\n")
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["type"] as? String, "yandex")
        XCTAssertEqual(account["algorithm"] as? String, "sha256")
        XCTAssertEqual(account["digits"] as? Int, 8)
        // The PIN is shown only where the secret is: in the URI.
        let details = try succeed(["show", "ivan"])
        XCTAssertFalse(details.contains("7586"), details)
        XCTAssertFalse(try succeed(["list"]).contains("7586"))
        XCTAssertEqual(
            try succeed(["show", "ivan", "--uri"]),
            "otpauth://yaotp/Yandex:ivan?secret=LA2V6KMCGYMWWVEW64RNP3JA3I&issuer=Yandex&algorithm=SHA256&digits=8&period=30&pin=G42TQNQ\n"
        )
    }

    func testMOTPAddTakesAHexSecretAndTheURIRoundTrips() throws {
        XCTAssertEqual(
            try addPiped(["jimmy", "--issuer", "PfSense", "--type", "motp"], "e3152afee62599c8\n1234\n").status, 0)
        XCTAssertEqual(try succeed(["code", "jimmy", "--at", "165892298"]), "e7d8b6\n")
        XCTAssertEqual(try succeed(["code", "jimmy", "--at", "123456789"]), "4ebfb2\n")
        let uri = try succeed(["show", "jimmy", "--uri"])
        XCTAssertEqual(uri, "motp://PfSense:jimmy?secret=e3152afee62599c8&issuer=PfSense&pin=GEZDGNA\n")
        let other = try addPiped(["copy", "--uri"], uri)
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(try succeed(["code", "copy", "--at", "165892298"]), "e7d8b6\n")
    }

    func testURIWithoutPINTakesItFromTheNextLine() throws {
        let uri = "otpauth://yaotp/Yandex:ivan?secret=\(Self.yandexSecret)"
        XCTAssertEqual(try addPiped(["--uri"], uri + "\n7586\n").status, 0)
        XCTAssertEqual(try succeed(["code", "ivan", "--at", "1581064020"]), "oactmacq\n")
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(try addPiped(["--uri", "other"], uri + "\n"), containing: "PIN")
        assertOneLineError(
            try addPiped(["--uri", "other"], "otpauth://totp/X:y?secret=JBSWY3DPEHPK3PXP\n1234\n"),
            containing: "more than the URI")
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testBadYandexAndMOTPInputIsRefusedWithoutEchoingIt() throws {
        try add("keep")
        let before = try VaultSnapshot.take(authcat)
        let cases: [([String], String, String)] = [
            (["y", "--type", "yandex"], "\(Self.yandexSecret)\n", "PIN"),
            (["y", "--type", "yandex"], "AA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI\n7586\n", "checksum"),
            (["y", "--type", "yandex"], "JBSWY3DPEHPK3PXP\n7586\n", "16 bytes"),
            (["y", "--type", "yandex", "--digits", "6"], "\(Self.yandexSecret)\n7586\n", "8 characters"),
            (["m", "--type", "motp"], "e3152afee62599cz\n1234\n", "invalid character"),
            (["m", "--type", "motp", "--algorithm", "sha1"], "e3152afee62599c8\n1234\n", "md5"),
        ]
        for (arguments, input, fragment) in cases {
            let result = try addPiped(arguments, input)
            assertOneLineError(result, containing: fragment)
            XCTAssertFalse(
                result.stderr.contains("7586") || result.stderr.contains("e3152afe")
                    || result.stderr.contains("LA2V6K"),
                result.stderr)
        }
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "a refused add changes nothing")
    }

    /// The quick front cannot read the PIN: it hands these accounts to authcat-cli.
    func testTheFrontHandsYandexAndMOTPToTheFullProgram() throws {
        XCTAssertEqual(try addPiped(["jimmy", "--type", "motp"], "e3152afee62599c8\n1234\n").status, 0)
        let folder = authcat.root.appendingPathComponent("lone", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let front = folder.appendingPathComponent("authcat")
        try FileManager.default.copyItem(at: AuthCatRunner.executableURL, to: front)
        assertOneLineError(
            try authcat.runAsProcess(program: front, ["code", "jimmy"]),
            containing: "install authcat-cli beside authcat", status: 1)
    }

    // MARK: Base32 lengths other apps accept

    func testAddReadsSecretsOfNonCanonicalLengthWithAWarning() throws {
        // 17 characters: 10 bytes and 5 bits; the bytes are "Hello!" and DE AD BE EF.
        let result = try addPiped(["odd", "--issuer", "2FAS"], "JBSWY3DPEHPK3PXPQ\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("17 Base32 characters"), result.stderr)
        XCTAssertFalse(result.stderr.contains("JBSWY3DP"), result.stderr)
        XCTAssertEqual(
            try succeed(["show", "odd", "--uri"]),
            "otpauth://totp/2FAS:odd?secret=JBSWY3DPEHPK3PXP&issuer=2FAS&algorithm=SHA1&digits=6&period=30\n")
        // Garbage is still garbage.
        assertOneLineError(try addPiped(["one"], "J\n"), containing: "has 1 Base32 character, a length")
        assertOneLineError(try addPiped(["bad"], "JBSWY3DPEHPK3PX1\n"), containing: "invalid character")
    }

    func testImportKeepsNonCanonicalSecretsWithAWarning() throws {
        let file = authcat.root.appendingPathComponent("ente.txt")
        try Data(
            "otpauth://totp/Ente:eleven?secret=JBSWY3DPEHP\notpauth://totp/Ente:fine?secret=JBSWY3DPEHPK3PXP\n".utf8
        ).write(to: file)
        let result = try authcat.run(["import", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("line 1 (Ente:eleven): the secret has 11 Base32 characters"), result.stderr)
        XCTAssertEqual(try listedAccounts().count, 2)
    }

    // MARK: --at

    func testCodeAtBefore1970IsRefused() throws {
        try add("rfc", issuer: "Test")
        for arguments in [["code", "rfc", "--at", "-5"], ["code", "--at=-1", "rfc"], ["code", "--at", "-5"]] {
            assertOneLineError(try authcat.run(arguments), containing: "1970", status: 64)
        }
        XCTAssertEqual(try succeed(["code", "rfc", "--at", "0"]).count, 7)
    }
}
