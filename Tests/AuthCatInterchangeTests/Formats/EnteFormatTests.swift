import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class EnteFormatTests: XCTestCase {
    private let password = ImportContext.answering("test-password")
    private let noPrompt = ImportContext.failingIfAsked()

    /// make_ente_encrypted.py's file (PyNaCl): otpauth.txt, with Ente's tags and notes.
    func testEncryptedExport() throws {
        let parsed = try EnteFormat.parse(Fixture.data("ente_encrypted.json"), context: password)
        let plain = try OTPAuthFormat.parse(Fixture.data("otpauth.txt"), context: ImportContext())
        XCTAssertEqual(parsed.format, .ente)
        assertEntries(parsed, ExpectedAccount.standard(tags: [["Work"]], notes: ["recovery codes in the safe"]))
        XCTAssertEqual(parsed.rejections, plain.rejections)
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("ente_encrypted.json")), .ente)
    }

    /// A file sealed here with libsodium, read back through libargon2: the two agree.
    func testBuiltExportWithUnicodeAndEveryKind() throws {
        let text = """
            otpauth://totp/%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank:%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank&algorithm=SHA256&digits=8&period=60
            otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&issuer=HOTP+Corp&algorithm=SHA1&digits=6&counter=42
            otpauth://steam/Steam:gamer?secret=ONSWG4TFOQ&issuer=Steam&digits=5&period=30
            """
        let data = try sealed(Data(text.utf8), password: "pässwörd 🔑")
        let parsed = try EnteFormat.parse(data, context: .answering("pässwörd 🔑"))
        let standard = ExpectedAccount.standard
        assertEntries(parsed, [standard[1], standard[3], standard[4]])
    }

    func testWrongPasswordOrNone() throws {
        try assertWrongPasswordOrNone(.ente, ["ente_encrypted.json"], wrong: "Test-password")
    }

    /// Ente's own ladder (1 GiB × 4 … 64 MiB × 64) is within the bound; more
    /// work, or more memory, is refused before the password is asked for.
    func testKeyDerivationBounds() throws {
        for (memLimit, opsLimit) in [(1 << 30, 4), (256 << 20, 16), (64 << 20, 64), (1 << 30, 16)] {
            XCTAssertNoThrow(try EnteFormat.Sealed(JSONFields(JSONValue.decode(changed(memLimit, opsLimit)))))
        }
        let refused: [(Int, Int, KeyDerivationLimitError.Demand)] = [
            (1 << 30, 17, .passes(17, allowed: 16)), (64 << 20, 257, .passes(257, allowed: 256)),
            ((1 << 30) + 1024, 1, .memory((1 << 30) + 1024, allowed: 1 << 30)),
            (8192, 1 << 40, .passes(1 << 40, allowed: 1 << 21)),
        ]
        for (memLimit, opsLimit, demand) in refused {
            XCTAssertThrowsError(try EnteFormat.parse(changed(memLimit, opsLimit), context: noPrompt)) {
                XCTAssertEqual(
                    $0 as? KeyDerivationLimitError,
                    KeyDerivationLimitError(source: "the Ente Auth export", demand: demand))
            }
        }
        for (memLimit, opsLimit) in [(0, 2), (1 << 20, 0), (4096, 2), ((1 << 20) + 1, 2), (-1, 2)] {
            XCTAssertThrowsError(try EnteFormat.parse(changed(memLimit, opsLimit), context: noPrompt)) { error in
                guard case .malformed(.ente, _)? = error as? ImportError else { return XCTFail("\(error)") }
            }
        }
    }

    func testDamagedFiles() throws {
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("ente_encrypted.json")) as? [String: Any])
        let damaged: [(String, Any)] = [
            ("encryptedData", "AAAA"), ("encryptedData", "not base64!"), ("encryptionNonce", "AAAA"),
            ("encryptionNonce", 24), ("kdfParams", ["memLimit": 1 << 20, "opsLimit": 2, "salt": "AAAA"]),
            ("kdfParams", "none"),
        ]
        for (key, value) in damaged {
            var file = document
            file[key] = value
            XCTAssertThrowsError(
                try EnteFormat.parse(JSONSerialization.data(withJSONObject: file), context: noPrompt), "\(key)"
            ) { error in
                guard case .malformed(.ente, _)? = error as? ImportError else { return XCTFail("\(key): \(error)") }
            }
        }
        var ciphertext = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(document["encryptedData"] as? String)))
        for altered in [ciphertext.dropLast(), ciphertext.dropFirst()] {
            var file = document
            file["encryptedData"] = Data(altered).base64EncodedString()
            XCTAssertThrowsError(try EnteFormat.parse(JSONSerialization.data(withJSONObject: file), context: password))
            {
                XCTAssertEqual($0 as? ImportError, .wrongPassword(.ente))
            }
        }
        ciphertext[3] ^= 1
        var file = document
        file["encryptedData"] = ciphertext.base64EncodedString()
        XCTAssertThrowsError(try EnteFormat.parse(JSONSerialization.data(withJSONObject: file), context: password)) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.ente))
        }
        XCTAssertThrowsError(try EnteFormat.parse(Data("[]".utf8), context: noPrompt))
    }

    /// A stream whose one chunk is not tagged final was cut short by its writer.
    func testAChunkNotTaggedFinalIsRefused() throws {
        let data = try sealed(Data("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP".utf8), password: "pw", tag: .message)
        XCTAssertThrowsError(try EnteFormat.parse(data, context: .answering("pw"))) {
            XCTAssertEqual($0 as? ImportError, .malformed(.ente, "its encrypted data is not one final chunk"))
        }
    }

    /// The fixture with other key derivation limits (it then no longer opens).
    private func changed(_ memLimit: Int, _ opsLimit: Int) throws -> Data {
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("ente_encrypted.json")) as? [String: Any])
        var kdf = try XCTUnwrap(document["kdfParams"] as? [String: Any])
        kdf["memLimit"] = memLimit
        kdf["opsLimit"] = opsLimit
        document["kdfParams"] = kdf
        return try JSONSerialization.data(withJSONObject: document)
    }

    /// `text` sealed as Ente seals an export, with libsodium's cheapest limits.
    private func sealed(_ text: Data, password: String, tag: SecretStream.Tag = .final) throws -> Data {
        let kdf = try KDFParameters(opsLimit: 1, memLimit: 8 << 20)
        let key = try kdf.deriveKey(from: SecretBytes(utf8: password), length: SecretStream.keySize)
        let stream = try SecretStream.encrypting(key: key)
        let ciphertext = try stream.seal(text, tag: tag)
        let document: [String: Any] = [
            "version": 1,
            "kdfParams": ["memLimit": kdf.memLimit, "opsLimit": kdf.opsLimit, "salt": kdf.salt.base64EncodedString()],
            "encryptedData": ciphertext.base64EncodedString(), "encryptionNonce": stream.header.base64EncodedString(),
        ]
        return try JSONSerialization.data(withJSONObject: document)
    }
}
