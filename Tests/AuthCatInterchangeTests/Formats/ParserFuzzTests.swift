import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatInterchange

/// Thousands of seeded random and damaged inputs per parser: each must end
/// in entries, rejections or a user-facing error, never a crash or a hang,
/// and no message may quote a secret.
///
/// Time and memory are bounded by construction, not measured: every input is
/// a fixture with a few mutations (a few kilobytes at most), and key
/// derivations are either tiny or beyond the bounds that refuse them at once.
/// Each run takes a random seed and prints it; `AUTHCAT_TEST_SEED=N`
/// replays run N (each parser's mutations follow from the seed and the
/// parser's number).
///
/// A mutation may splice a secret's text into an entry's name, which a
/// message then rightly quotes; the check tells that from a message that
/// quotes a secret field (`quotesASecretField`), as seed
/// 12860752227961138917 (andOTP #1839) once needed.
final class ParserFuzzTests: XCTestCase {
    private static let iterations = 2000
    private static let secrets = [
        "JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "MFRGGZDFMZTWQ2LK", "ONSWG4TFOQ",
    ]
    private static let seed: UInt64 = {
        let seed =
            ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("ParserFuzzTests seed \(seed) (AUTHCAT_TEST_SEED=\(seed) replays it)")
        return seed
    }()
    private let backupKey = try? SecretBytes.random(count: 32)

    /// The generator of the parser numbered `stream`.
    private static func generator(_ stream: UInt64) -> SeededRandom {
        SeededRandom(seed: seed &+ stream &* 0x9E37_79B9_7F4A_7C15)
    }

    private func fuzz(
        _ name: String, seeds: [Data], seed stream: UInt64, parse: (Data) throws -> ParsedImport,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var mutator = Mutator(generator: Self.generator(stream))
        var outcomes = (parsed: 0, refused: 0)
        for iteration in 0..<Self.iterations {
            let input = mutator.mutate(seeds[iteration % seeds.count])
            let replay = "\(name) #\(iteration), AUTHCAT_TEST_SEED=\(Self.seed)"
            do {
                let parsed = try parse(input)
                outcomes.parsed += 1
                if !parsed.rejections.isEmpty { outcomes.refused += 1 }
                for rejection in parsed.rejections {
                    check(
                        rejection.description, replay,
                        quotesAField: { quotesASecretField($0, input: input, parse: parse) }, file: file, line: line)
                }
            } catch let error as UserFacingError {
                outcomes.refused += 1
                check(
                    error.description, replay,
                    quotesAField: { quotesASecretField($0, input: input, parse: parse) }, file: file, line: line)
            } catch {
                XCTFail("\(replay): \(type(of: error)) is not a user-facing error: \(error)", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(
            outcomes.refused, 0, "\(name): the mutations should break some inputs", file: file, line: line)
    }

    /// A message must say something and quote no secret: none that
    /// `quotesAField` says comes from a secret field (by default, none at all).
    /// The example a message gives of what Base32 looks like is fixed text,
    /// not a quote, though the fixtures also use it as a secret.
    private func check(
        _ message: String, _ replay: String, quotesAField: (String) -> Bool = { _ in true },
        file: StaticString, line: UInt
    ) {
        XCTAssertFalse(message.isEmpty, "\(replay): empty message", file: file, line: line)
        let quoting = message.replacingOccurrences(of: "such as \(Base32Error.exampleSecret)", with: "such as …")
        for secret in Self.secrets where quoting.contains(secret) && quotesAField(secret) {
            XCTFail("\(replay): message quotes a secret: \(message)", file: file, line: line)
        }
    }

    /// Whether a message holding `secret` quotes a secret field of `input`
    /// rather than a name that holds the same text. `input` is parsed again
    /// with the value of every secret field changed (`withSecretFieldsChanged`):
    /// a message that quotes a field shows the changed text; one that quotes a
    /// name still shows the secret, which then is still in the input. A secret
    /// the input does not hold as text (inside a binary payload) is a leak too.
    private func quotesASecretField(
        _ secret: String, input: Data, parse: (Data) throws -> ParsedImport
    ) -> Bool {
        let changed = Self.withSecretFieldsChanged(input)
        guard changed.range(of: Data(secret.utf8)) != nil else { return true }
        let messages: [String]
        do {
            messages = try parse(changed).rejections.map(\.description)
        } catch {
            messages = ["\(error)"]
        }
        let moved = String(decoding: Self.shifted(Array(secret.utf8)), as: UTF8.self)
        return messages.contains { $0.contains(moved) }
    }

    /// The fields that hold a secret as text: an otpauth URI's `secret=`
    /// parameter, and the JSON members `"secret"` and `"totp"`.
    private static let secretFieldMarkers = ["?secret=", "&secret=", "\"secret\":\"", "\"totp\":\""].map {
        Array($0.utf8)
    }

    /// `input` with each secret field's Base32 letters moved on by one
    /// (`shifted`): the same length and alphabet, so the parse takes the same way.
    static func withSecretFieldsChanged(_ input: Data) -> Data {
        var bytes = [UInt8](input)
        var index = 0
        while index < bytes.count {
            guard let end = secretFieldMarkers.lazy.compactMap({ matchEnd($0, in: bytes, at: index) }).first else {
                index += 1
                continue
            }
            index = end
            let start = index
            while index < bytes.count, shifted([bytes[index]]) != [bytes[index]] { index += 1 }
            bytes.replaceSubrange(start..<index, with: shifted(Array(bytes[start..<index])))
        }
        return Data(bytes)
    }

    /// Where `marker` ends if it starts at `start` in `bytes`, white space
    /// allowed before each of its bytes but the first (JSON may have spaces
    /// around its colons); nil if it is not there.
    private static func matchEnd(_ marker: [UInt8], in bytes: [UInt8], at start: Int) -> Int? {
        var index = start
        for (offset, expected) in marker.enumerated() {
            while offset > 0, index < bytes.count, [9, 10, 13, 32].contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == expected else { return nil }
            index += 1
        }
        return index
    }

    /// Each Base32 letter (either case) replaced by the next in the alphabet, `7` by `A`; other bytes kept.
    static func shifted(_ text: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        return text.map { byte in
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            guard let position = alphabet.firstIndex(of: upper) else { return byte }
            let next = alphabet[(position + 1) % alphabet.count]
            return upper == byte || next < UInt8(ascii: "A") ? next : next + 32
        }
    }

    /// The secret check itself: it fails a message that quotes the secret
    /// field, and passes one that quotes a name holding the same text.
    func testTheSecretCheckTellsASecretFieldFromANameHoldingItsText() {
        let secret = Self.secrets[0]
        let input = Data("otpauth://totp/\(secret)?secret=\(secret)&issuer=X".utf8)
        let quotingTheName: (Data) throws -> ParsedImport = { data in
            let text = String(decoding: data, as: UTF8.self)
            throw Message(text: "bad entry '\(text.dropFirst("otpauth://totp/".count).prefix { $0 != "?" })'")
        }
        let quotingTheField: (Data) throws -> ParsedImport = { data in
            let text = String(decoding: data, as: UTF8.self)
            throw Message(text: "bad secret \(text.components(separatedBy: "secret=")[1].prefix { $0 != "&" })")
        }
        XCTAssertFalse(quotesASecretField(secret, input: input, parse: quotingTheName))
        XCTAssertTrue(quotesASecretField(secret, input: input, parse: quotingTheField))
        // Held only inside a binary payload, not as text: whatever quotes it leaks it.
        let payload = Data("otpauth-migration://offline?data=AAAA".utf8)
        XCTAssertTrue(quotesASecretField(secret, input: payload, parse: quotingTheName))
    }

    private struct Message: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    private func parser(_ format: ImportFormat, password: String = "pw") -> (Data) throws -> ParsedImport {
        let key = backupKey
        let context = ImportContext(
            password: { SecretBytes(utf8: password) },
            backupKey: { _ in
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
        let payload = try XCTUnwrap(
            Hex.decode(
                try Fixture.text("google_migration_canonical.hex").trimmingCharacters(in: .whitespacesAndNewlines)))
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
        let seeds = try ["twofas.2fas", "2fas_authenticator_plain_v4.2fas"].map { try Fixture.data($0) }
        fuzz("2fas", seeds: seeds, seed: 6, parse: parser(.twoFAS))
    }

    func testAndOTP() throws {
        fuzz("andotp", seeds: [try Fixture.data("andotp.json")], seed: 7, parse: parser(.andOTP))
    }

    func testBitwarden() throws {
        fuzz("bitwarden", seeds: [try Fixture.data("bitwarden.json")], seed: 8, parse: parser(.bitwarden))
    }

    func testStratumBackupAndHTML() throws {
        let html = Data(
            #"<html><body><a href="otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&amp;issuer=A">a</a></body></html>"#.utf8)
        fuzz("stratum", seeds: [try Fixture.data("stratum_plain.json"), html], seed: 31, parse: parser(.stratum))
    }

    func testPassEntries() throws {
        let entries = [
            "hunter2\nlogin: a\notpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&digits=8\n",
            "pw\ntotp: MFRGGZDFMZTWQ2LK\n",
        ]
        fuzz("pass", seeds: entries.map { Data($0.utf8) }, seed: 41, parse: parser(.pass))
    }

    func testKeePassXC() throws {
        fuzz("keepassxc", seeds: [try Fixture.data("keepassxc.csv")], seed: 42, parse: parser(.keepassxc))
    }

    func testOnePassword() throws {
        // The archive (most mutations break its checksums) and its export.data alone.
        let archive = try Fixture.data("onepassword.1pux")
        let data = try XCTUnwrap(BoundedZIP(archive).contents(of: OnePasswordFormat.dataPath))
        fuzz("1password", seeds: [archive, data], seed: 201, parse: parser(.onePassword))
    }

    func testProtonPass() throws {
        let archive = try Fixture.data("proton_pass.zip")
        let data = try XCTUnwrap(BoundedZIP(archive).contents(of: ProtonPassFormat.dataPath))
        let csv = Data(
            ("type,name,url,email,username,password,note,totp,createTime,modifyTime,vault\n"
                + "login,A,,a@example.com,a,pw,\"a, note\",JBSWY3DPEHPK3PXP,1,2,V\n").utf8)
        fuzz("protonpass", seeds: [archive, data, csv], seed: 202, parse: parser(.protonPass))
    }

    func testKeePassXML() throws {
        fuzz("keepass-xml", seeds: [try Fixture.data("keepassxc.xml")], seed: 43, parse: parser(.keepassXML))
    }

    func testTOTPAuthenticator() throws {
        // Neither the app's password nor "pw" opens the backup: each attempt costs two SHA-256 and AES-CBC runs.
        let seeds = try ["totp_authenticator_internal.xml", "totp_authenticator.bin"].map { try Fixture.data($0) }
        fuzz("totp-authenticator", seeds: seeds, seed: 45, parse: parser(.totpAuthenticator))
    }

    func testLastPass() throws {
        fuzz("lastpass", seeds: [try Fixture.data("lastpass.json")], seed: 46, parse: parser(.lastPass))
    }

    /// The XML reader under the Android and KeePass formats, on documents of
    /// every construct it reads: whatever the damage, a tree or a `Failure`.
    func testBoundedXML() throws {
        let document = Data(
            """
            <?xml version="1.0"?><!-- c --><a x="&amp;&#x41;" y='2'><b>t &lt; &#66;</b><?p i?>\
            <c><![CDATA[<raw>]]></c><d/><h><e>skipped</e></h></a>
            """.utf8)
        let limits = BoundedXML.Limits(maximumBytes: 4096, maximumDepth: 4, maximumElements: 16)
        fuzz("bounded xml", seeds: [document, try Fixture.data("freeotp.xml")], seed: 44) { data in
            do {
                _ = try BoundedXML(data, limits: limits, skipping: ["h"])
            } catch let failure as BoundedXML.Failure {
                throw ImportError.malformed(.keepassXML, failure.description)
            }
            return ParsedImport(format: .keepassXML)
        }
    }

    func testAuthCatJSONAndBackups() throws {
        let key = try XCTUnwrap(backupKey)
        let archive = AuthCatArchive(
            kind: .backup, createdAt: Date(), vaultID: "v",
            accounts: try ExpectedAccount.standard.map {
                ArchivedAccount(account($0.issuer, $0.name, otp: $0.draft.otp), secret: try Base32Secret($0.secret))
            }, preferences: ["a": "b"])
        let backup = try VaultBackup.seal(archive, key: key, kdf: KDFParameters.minimumForTesting())
        fuzz("authcat", seeds: [try archive.encoded(), backup], seed: 9, parse: parser(.authcat))
    }

    func testFreeOTP() throws {
        // The backup's PBKDF2 is cheap (10 iterations), so thousands of attempts stay fast.
        let seeds = [try Fixture.data("freeotp_plus_internal.xml"), try FreeOTPBackup.make(iterations: 10)]
        fuzz("freeotp", seeds: seeds, seed: 101, parse: parser(.freeOTP))
        fuzz("freeotp+", seeds: [try Fixture.data("freeotp_plus.json")], seed: 102, parse: parser(.freeOTPPlus))
    }

    func testSteam() throws {
        let seeds = try ["steam.json", "steam_old.json"].map { try Fixture.data($0) }
        fuzz("steam", seeds: seeds, seed: 103, parse: parser(.steam))
    }

    func testAuthy() throws {
        // The encrypted fixture's password is not "pw": each attempt fails at its first token's cheap PBKDF2.
        let seeds = try ["authy_plain.xml", "authy_encrypted.xml"].map { try Fixture.data($0) }
        fuzz("authy", seeds: seeds, seed: 104, parse: parser(.authy))
    }

    func testBattleNetDuoAndProton() throws {
        fuzz(
            "battlenet", seeds: [try Fixture.data("battle_net_authenticator.xml")], seed: 105, parse: parser(.battleNet)
        )
        fuzz("duo", seeds: [try Fixture.data("duo.json")], seed: 106, parse: parser(.duo))
        fuzz(
            "proton", seeds: [try Fixture.data("proton_authenticator.json")], seed: 107,
            parse: parser(.protonAuthenticator))
    }

    func testAuthenticatorDatabases() throws {
        fuzz(
            "google-db", seeds: [try Fixture.data("google_authenticator.sqlite")], seed: 108,
            parse: parser(.googleAuthenticatorDatabase))
        fuzz(
            "microsoft", seeds: [try Fixture.data("microsoft_authenticator.sqlite")], seed: 109,
            parse: parser(.microsoftAuthenticator))
    }

    func testFormatDetectionAndQRTexts() throws {
        let seeds = try ["otpauth.txt", "google_migration.txt", "aegis_plain.json", "bitwarden.json"].map {
            try Fixture.data($0)
        }
        fuzz("detector", seeds: seeds, seed: 10) { data in
            var parsed = ParsedImport(format: try FormatDetector.detect(data))
            parsed.warnings = []
            return parsed
        }
        fuzz("qr texts", seeds: [try Fixture.data("google_migration.txt")], seed: 11) { data in
            try QRImageImport.parse(
                texts: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        }
    }

    func testPNGDecoding() throws {
        let png = try QRCode.encode("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP").image(scale: 2).pngData()
        fuzz("png", seeds: [png], seed: 12) { data in
            _ = try GreyImage(png: data)
            return ParsedImport(format: .otpauth)
        }
    }

    func testAegisHeadersWithRandomSlots() throws {
        // Slot lists of random length whose scrypt parameters are either tiny
        // or beyond the bounds: each file is refused quickly or opened.
        let vault = try XCTUnwrap(JSONSerialization.jsonObject(with: smallAegisVault(password: "pw")) as? [String: Any])
        let header = try XCTUnwrap(vault["header"] as? [String: Any])
        let slot = try XCTUnwrap((header["slots"] as? [[String: Any]])?.first)
        var random = Self.generator(13)
        var outcomes = (opened: 0, refusedForCost: 0)
        for iteration in 0..<300 {
            var slots: [[String: Any]] = []
            for _ in 0..<Int.random(in: 0...(AegisFormat.maximumSlots + 2), using: &random) {
                var hostile = slot
                let tiny = random.chance(0.5)
                hostile["n"] =
                    tiny ? 1 << Int.random(in: 1...4, using: &random) : 1 << Int.random(in: 1...62, using: &random)
                hostile["r"] =
                    tiny ? Int.random(in: 1...8, using: &random) : Int.random(in: 1...Int(UInt32.max), using: &random)
                hostile["p"] =
                    tiny ? Int.random(in: 1...4, using: &random) : 1 << Int.random(in: 0...31, using: &random)
                if random.chance(0.1) { hostile["type"] = 2 }
                slots.append(hostile)
            }
            if random.chance(0.3) { slots.append(slot) }
            var file = vault
            file["header"] = header.merging(["slots": slots]) { $1 }
            let replay = "aegis header #\(iteration), AUTHCAT_TEST_SEED=\(Self.seed)"
            do {
                _ = try parser(.aegis)(JSONSerialization.data(withJSONObject: file))
                outcomes.opened += 1
            } catch let error as KeyDerivationLimitError {
                outcomes.refusedForCost += 1
                XCTAssertTrue(error.description.hasPrefix("the Aegis file asks for "), "\(replay): \(error)")
            } catch let error as UserFacingError {
                check(error.description, replay, file: #filePath, line: #line)
            }
        }
        XCTAssertGreaterThan(outcomes.opened, 0)
        XCTAssertGreaterThan(outcomes.refusedForCost, 0)
    }

    func testDeeplyNestedJSONIsRefusedByEveryJSONParser() throws {
        var random = Self.generator(14)
        for format in [ImportFormat.aegis, .twoFAS, .andOTP, .bitwarden, .authcat, .stratum, .ente] {
            let depth = Int.random(in: 65...200_000, using: &random)
            let opening = random.chance(0.5) ? "[" : "{\"a\":"
            let nested = String(repeating: opening, count: depth) + "1"
            XCTAssertThrowsError(try parser(format)(Data(nested.utf8)), "\(format) at depth \(depth)") { error in
                XCTAssertTrue(error is UserFacingError, "\(format): \(error)")
            }
            XCTAssertThrowsError(try FormatDetector.detect(Data(nested.utf8)))
        }
    }

    func testEntryCountsAreBounded() throws {
        let many = "[" + Array(repeating: "{}", count: ParsedImport.maximumEntries + 1).joined(separator: ",") + "]"
        XCTAssertThrowsError(try parser(.andOTP)(Data(many.utf8))) { error in
            XCTAssertEqual(
                "\(error)",
                "this is not a valid andOTP backup: it holds more than 100000 entries, the most authcat reads from one file"
            )
        }
        let lines = String(repeating: "otpauth://totp/x\n", count: ParsedImport.maximumEntries + 1)
        XCTAssertThrowsError(try parser(.otpauth)(Data(lines.utf8)))
    }

    /// The parsers ask for room for a whole list before reading any of it:
    /// room up to the bound, counting the entries already read.
    func testRoomForAListCountsWhatWasReadBefore() throws {
        var parsed = ParsedImport(format: .otpauth)
        XCTAssertNoThrow(try parsed.checkRoom(forEntries: ParsedImport.maximumEntries))
        try parsed.read(.entry(1), label: nil) { throw EntryProblem.invalid("unreadable") }
        XCTAssertNoThrow(try parsed.checkRoom(forEntries: ParsedImport.maximumEntries - 1))
        XCTAssertThrowsError(try parsed.checkRoom(forEntries: ParsedImport.maximumEntries)) { error in
            XCTAssertTrue("\(error)".contains("it holds more than 100000 entries"), "\(error)")
        }
    }

    /// An encrypted Aegis vault with scrypt N = 16, so thousands of attempts stay fast.
    private func smallAegisVault(password: String) throws -> Data {
        let database = try JSONSerialization.jsonObject(with: Fixture.data("aegis_plain.json")) as? [String: Any]
        let plaintext = try JSONSerialization.data(withJSONObject: database?["db"] ?? [:])
        let masterKey = try SecretBytes.random(count: AESGCM.keySize)
        let salt = Data((0..<32).map { UInt8($0) })
        let slotKey = try Scrypt.deriveKey(password: SecretBytes(utf8: password), salt: salt, n: 16, r: 8, p: 1)
        let keyNonce = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let wrapped = try AESGCM.seal(masterKey.unprotectedData(), key: slotKey, nonce: keyNonce)
        let dbNonce = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let sealedDB = try AESGCM.seal(plaintext, key: masterKey, nonce: dbNonce)
        let vault: [String: Any] = [
            "version": 1,
            "header": [
                "slots": [
                    [
                        "type": 1, "uuid": UUID().uuidString, "key": Hex.encode(wrapped.ciphertext),
                        "key_params": ["nonce": Hex.encode(keyNonce), "tag": Hex.encode(wrapped.tag)],
                        "n": 16, "r": 8, "p": 1, "salt": Hex.encode(salt),
                    ]
                ],
                "params": ["nonce": Hex.encode(dbNonce), "tag": Hex.encode(sealedDB.tag)],
            ],
            "db": sealedDB.ciphertext.base64EncodedString(),
        ]
        let data = try JSONSerialization.data(withJSONObject: vault)
        XCTAssertEqual(
            try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: password) })).entries
                .count, 6)
        return data
    }
}
