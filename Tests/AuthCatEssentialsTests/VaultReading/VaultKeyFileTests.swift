import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatEssentials

/// `vault.key` is read without `JSONDecoder` when it is in the form the
/// writer writes (issue 22); these prove that reader decides as the decoder does.
final class VaultKeyFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url
    }

    /// The decoder's reading of `bytes`, before `read` checks the values.
    private func decodedValue(_ bytes: [UInt8]) -> VaultKeyFile? {
        try? JSONDecoder().decode(VaultKeyFile.self, from: Data(bytes))
    }

    /// What `read` decided when it used only the decoder.
    private func decoded(_ bytes: [UInt8]) -> VaultKeyFile? {
        guard let file = decodedValue(bytes), file.format == VaultKeyFile.formatName,
            file.version == VaultKeyFile.currentVersion, file.isComplete
        else { return nil }
        return file
    }

    /// The writer's bytes for key files with seeded random keys, salts and ids.
    private func written(_ random: inout SeededRandom) throws -> [UInt8] {
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let key = SecretBytes(Data(bytes))
        // From the seed too, so that a damaged position replays exactly.
        let id = (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &random), radix: 16) }.joined()
        var file = VaultKeyFile.plain(vaultID: id, key: key)
        if random.chance(0.5) {
            var kdf = try KDFParameters.minimumForTesting()
            kdf.salt = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
            kdf.opsLimit = UInt64.random(in: 1...16, using: &random)
            file = VaultKeyFile(
                format: file.format, version: file.version, vaultID: id, protection: .passphrase, key: nil, kdf: kdf,
                wrappedKey: Data((0..<72).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
        let url = folder.appendingPathComponent("vault.key")
        try file.write(to: url)
        return Array(try Data(contentsOf: url))
    }

    /// Every file the writer writes is read in the plain form, to the value written.
    /// A huge file or a FIFO planted at the name is refused, never read whole or waited on.
    func testAKeyFileFarTooLargeOrAFIFOIsRefusedWithoutReadingIt() throws {
        let huge = folder.appendingPathComponent("huge.key")
        try Data(repeating: UInt8(ascii: " "), count: 3 * 1024 * 1024).write(to: huge)
        XCTAssertThrowsError(try VaultKeyFile.read(atPath: huge.path)) {
            XCTAssertEqual($0 as? VaultError, .invalidKeyFile(huge.path))
        }
        let fifo = folder.appendingPathComponent("fifo.key")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try VaultKeyFile.read(atPath: fifo.path)) {
            XCTAssertEqual($0 as? VaultError, .invalidKeyFile(fifo.path))
        }
        let missing = folder.appendingPathComponent("missing.key").path
        XCTAssertThrowsError(try VaultKeyFile.read(atPath: missing)) {
            XCTAssertEqual($0 as? VaultError, .missingKeyFile(missing))
        }
    }

    func testTheWritersOutputIsReadWithoutTheDecoder() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"] ?? "") ?? 2_026_112_523
        print("VaultKeyFileTests writer seed: \(seed) (AUTHCAT_TEST_SEED replays it)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let bytes = try written(&random)
            let plain = VaultKeyFile.plainForm(bytes)
            XCTAssertNotNil(plain, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(plain, decodedValue(bytes))
            XCTAssertEqual(try VaultKeyFile.read(atPath: folder.appendingPathComponent("vault.key").path), plain)
        }
    }

    /// Seeded random damage to written files (bytes removed, inserted,
    /// replaced, repeated; JSON's own tokens among the bytes tried): whatever the
    /// plain reader accepts, the decoder accepts with the same value, and
    /// `read` decides exactly as the decoder did.
    func testDamagedFilesAreDecidedAsTheDecoderDecides() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"] ?? "") ?? 2_026_112_524
        print("VaultKeyFileTests damage seed: \(seed) (AUTHCAT_TEST_SEED replays it)")
        var random = SeededRandom(seed: seed)
        let tokens = Array("{}[]:,\"\\/.eE+-0123456789 \t\nnulltruefalseABz=".utf8) + [0, 0x7F, 0xC3, 0xA9, 0xFF]
        var acceptedDamaged = 0
        for _ in 0..<300 {
            let original = try written(&random)
            for _ in 0..<20 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    let token = random.pick(tokens) ?? 0
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(token, at: at)
                    case 2: bytes[at] = token
                    default: bytes.insert(contentsOf: bytes[at..<min(at + 12, bytes.count)], at: at)
                    }
                    if bytes.isEmpty { bytes = [token] }
                }
                if let plain = VaultKeyFile.plainForm(bytes) {
                    XCTAssertEqual(plain, decodedValue(bytes), String(decoding: bytes, as: UTF8.self))
                    if bytes != original { acceptedDamaged += 1 }
                }
                let url = folder.appendingPathComponent("damaged.key")
                try Data(bytes).write(to: url)
                XCTAssertEqual(try? VaultKeyFile.read(atPath: url.path), decoded(bytes))
            }
        }
        // Some damage leaves a valid file (white space, a changed digit of a limit): read by the plain reader too.
        XCTAssertGreaterThan(acceptedDamaged, 0)
    }

    /// The forms the decoder allows beyond the writer's are left to it, and it still decides them.
    func testOtherFormsOfJSONAreLeftToTheDecoder() throws {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let head = #"{"format":"authcat-vault-key","vault_id":"x","protection":"none","key":"\#(key)""#
        let forms = [
            head + #","version":1.0}"#, head + #","version":1e0}"#, head + #","version":1,}"#,
            head + #","version":1,"version":2}"#, head + #","version":1,"extra":[1,{"a":null}]}"#,
            head + #","version":1,"kdf":null}"#, "\u{FEFF}" + head + #","version":1}"#,
            head.replacingOccurrences(of: "vault_id", with: #"vault\u005fid"#) + #","version":1}"#,
        ]
        for form in forms {
            let bytes = Array(form.utf8)
            XCTAssertNil(VaultKeyFile.plainForm(bytes), form)
            XCTAssertNotNil(decodedValue(bytes), form)
            let url = folder.appendingPathComponent("other.key")
            try Data(bytes).write(to: url)
            XCTAssertEqual(try VaultKeyFile.read(atPath: url.path), decoded(bytes), form)
        }
        XCTAssertNotNil(VaultKeyFile.plainForm(Array((head + #","version":1}"#).utf8)))
    }

    /// A member the decoder cannot decode refuses the file, even one its protection does not need.
    func testAMemberOfTheWrongFormRefusesTheFile() throws {
        let base64 = { (count: Int) in Data(repeating: 7, count: count).base64EncodedString() }
        let kdf = #"{"algorithm":"argon2id13","memLimit":8192,"opsLimit":1,"salt":"\#(base64(16))"}"#
        let head = #"{"format":"authcat-vault-key","version":1,"vault_id":"x","protection":"passphrase","kdf":\#(kdf)"#
        let forms = [
            head + #","wrapped_key":"\#(base64(72))","key":"!!"}"#, head + #","wrapped_key":"\#(base64(72))","key":7}"#,
            head + #","wrapped_key":"AAA"}"#,
        ]
        XCTAssertNotNil(VaultKeyFile.plainForm(Array((head + #","wrapped_key":"\#(base64(72))"}"#).utf8)))
        for form in forms {
            let bytes = Array(form.utf8)
            XCTAssertNil(VaultKeyFile.plainForm(bytes), form)
            XCTAssertNil(decodedValue(bytes), form)
            let url = folder.appendingPathComponent("refused.key")
            try Data(bytes).write(to: url)
            XCTAssertThrowsError(try VaultKeyFile.read(atPath: url.path), form)
        }
        XCTAssertThrowsError(try VaultKeyFile.read(atPath: folder.appendingPathComponent("missing.key").path)) {
            XCTAssertEqual($0 as? VaultError, .missingKeyFile(self.folder.appendingPathComponent("missing.key").path))
        }
    }
}
