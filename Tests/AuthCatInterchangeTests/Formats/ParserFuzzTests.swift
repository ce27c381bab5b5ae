@testable import AuthCatInterchange
import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Crypto
import AuthCatTestSupport
import Foundation
import XCTest

/// Thousands of seeded random and damaged inputs per parser: each must end
/// in entries, rejections or a user-facing error, never a crash or a hang,
/// and no message may quote a secret.
final class ParserFuzzTests: XCTestCase {
    private static let iterations = 2000
    private static let secrets = ["JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "MFRGGZDFMZTWQ2LK", "ONSWG4TFOQ"]
    private let backupKey = try? SecretBytes.random(count: 32)

    private func fuzz(_ name: String, seeds: [Data], seed: UInt64, parse: (Data) throws -> ParsedImport,
                      file: StaticString = #filePath, line: UInt = #line) {
        var mutator = Mutator(generator: SeededRandom(seed: seed))
        let start = Date()
        var outcomes = (parsed: 0, refused: 0)
        for iteration in 0..<Self.iterations {
            let input = mutator.mutate(seeds[iteration % seeds.count])
            do {
                let parsed = try parse(input)
                outcomes.parsed += 1
                if !parsed.rejections.isEmpty { outcomes.refused += 1 }
                for rejection in parsed.rejections {
                    check(rejection.description, name, iteration, file: file, line: line)
                }
            } catch let error as UserFacingError {
                outcomes.refused += 1
                check(error.description, name, iteration, file: file, line: line)
            } catch {
                XCTFail("\(name) #\(iteration): \(type(of: error)) is not a user-facing error: \(error)", file: file, line: line)
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, 20, "\(name) took \(elapsed) s for \(Self.iterations) inputs: something hangs", file: file, line: line)
        XCTAssertGreaterThan(outcomes.refused, 0, "\(name): the mutations should break some inputs", file: file, line: line)
    }

    private func check(_ message: String, _ name: String, _ iteration: Int, file: StaticString, line: UInt) {
        XCTAssertFalse(message.isEmpty, "\(name) #\(iteration): empty message", file: file, line: line)
        for secret in Self.secrets where message.contains(secret) {
            XCTFail("\(name) #\(iteration): message quotes a secret: \(message)", file: file, line: line)
        }
    }

    private func parser(_ format: ImportFormat, password: String = "pw") -> (Data) throws -> ParsedImport {
        let key = backupKey
        let context = ImportContext(password: { SecretBytes(utf8: password) }, backupKey: { _ in
            guard let key else { throw BackupError.wrongPassphraseOrAltered }
            return key
        })
        return { try format.parse($0, context: context) }
    }

    func testOTPAuth() throws {
        fuzz("otpauth", seeds: [try Fixture.data("otpauth.txt")], seed: 1, parse: parser(.otpauth))
    }

    func testGoogle() throws {
        fuzz("google", seeds: [try Fixture.data("google_migration.txt")], seed: 2, parse: parser(.google))
    }

    func testGoogleProtobufPayloads() throws {
        // Mutate the protobuf itself, not its base64, so the binary decoder sees the damage.
        let payload = try XCTUnwrap(Hex.decode(try Fixture.text("google_migration_canonical.hex").trimmingCharacters(in: .whitespacesAndNewlines)))
        fuzz("google payload", seeds: [payload], seed: 3) { data in
            try GoogleMigrationFormat.parse(Data(GoogleMigrationFormat.uri(for: data).utf8), context: ImportContext())
        }
    }

    func testAegisPlain() throws {
        fuzz("aegis", seeds: [try Fixture.data("aegis_plain.json")], seed: 4, parse: parser(.aegis))
    }

    func testAegisEncrypted() throws {
        fuzz("aegis encrypted", seeds: [try smallAegisVault(password: "pw")], seed: 5, parse: parser(.aegis))
    }

    func testTwoFAS() throws {
        fuzz("2fas", seeds: [try Fixture.data("twofas.2fas")], seed: 6, parse: parser(.twoFAS))
    }

    func testAndOTP() throws {
        fuzz("andotp", seeds: [try Fixture.data("andotp.json")], seed: 7, parse: parser(.andOTP))
    }

    func testBitwarden() throws {
        fuzz("bitwarden", seeds: [try Fixture.data("bitwarden.json")], seed: 8, parse: parser(.bitwarden))
    }

    func testAuthCatJSONAndBackups() throws {
        let key = try XCTUnwrap(backupKey)
        let archive = AuthCatArchive(kind: .backup, createdAt: Date(), vaultID: "v", accounts: try ExpectedAccount.standard.map {
            ArchivedAccount(account($0.issuer, $0.name, otp: $0.draft.otp), secret: try Base32Secret($0.secret))
        }, preferences: ["a": "b"])
        let backup = try VaultBackup.seal(archive, key: key, kdf: KDFParameters.minimumForTesting())
        fuzz("authcat", seeds: [try archive.encoded(), backup], seed: 9, parse: parser(.authcat))
    }

    func testFormatDetectionAndQRTexts() throws {
        let seeds = try ["otpauth.txt", "google_migration.txt", "aegis_plain.json", "bitwarden.json"].map { try Fixture.data($0) }
        fuzz("detector", seeds: seeds, seed: 10) { data in
            var parsed = ParsedImport(format: try FormatDetector.detect(data))
            parsed.warnings = []
            return parsed
        }
        fuzz("qr texts", seeds: [try Fixture.data("google_migration.txt")], seed: 11) { data in
            try QRImageImport.parse(texts: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        }
    }

    func testPNGDecoding() throws {
        let png = try QRCode.encode("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP").image(scale: 2).pngData()
        fuzz("png", seeds: [png], seed: 12) { data in
            _ = try GreyImage(png: data)
            return ParsedImport(format: .otpauth)
        }
    }

    /// An encrypted Aegis vault with scrypt N = 16, so thousands of attempts stay fast.
    private func smallAegisVault(password: String) throws -> Data {
        let database = try JSONSerialization.jsonObject(with: Fixture.data("aegis_plain.json")) as? [String: Any]
        let plaintext = try JSONSerialization.data(withJSONObject: database?["db"] ?? [:])
        let masterKey = SymmetricKey(size: .bits256)
        let salt = Data((0..<32).map { UInt8($0) })
        let slotKey = try Scrypt.deriveKey(password: SecretBytes(utf8: password), salt: salt, n: 16, r: 8, p: 1)
        let wrapped = try slotKey.withUnsafeBytes { try AES.GCM.seal(masterKey.withUnsafeBytes { Data($0) }, using: SymmetricKey(data: $0)) }
        let sealedDB = try AES.GCM.seal(plaintext, using: masterKey)
        let vault: [String: Any] = [
            "version": 1,
            "header": [
                "slots": [["type": 1, "uuid": UUID().uuidString, "key": Hex.encode(wrapped.ciphertext),
                           "key_params": ["nonce": Hex.encode(Data(wrapped.nonce)), "tag": Hex.encode(wrapped.tag)],
                           "n": 16, "r": 8, "p": 1, "salt": Hex.encode(salt)]],
                "params": ["nonce": Hex.encode(Data(sealedDB.nonce)), "tag": Hex.encode(sealedDB.tag)],
            ],
            "db": sealedDB.ciphertext.base64EncodedString(),
        ]
        let data = try JSONSerialization.data(withJSONObject: vault)
        XCTAssertEqual(try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: password) })).entries.count, 6)
        return data
    }
}
