import AuthCatEssentials
import Foundation

@testable import AuthCatInterchange

/// FreeOTP 2 backups written the way FreeOTP writes them, with a PBKDF2 as
/// cheap as a test needs.
enum FreeOTPBackup {
    /// A FreeOTP 2 backup with one HOTP token, written the way FreeOTP writes it.
    static func make(iterations: Int) throws -> Data {
        let salt = Data(repeating: 7, count: 32)
        let masterKey = try SecretBytes.random(count: 32)
        let passwordKey = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: "pw"), salt: salt, iterations: UInt64(min(iterations, 10)), hash: .sha512)
        let sealedMaster = try seal(masterKey.unprotectedData(), key: passwordKey, token: "AES")
        let sealedSecret = try seal(
            Base32.decode(ExpectedAccount.airCanada.secret).unprotectedData(), key: masterKey, token: "HmacSHA256")
        let masterJSON =
            #"{"mAlgorithm":"PBKDF2withHmacSHA512","mEncryptedKey":\#(sealedMaster),"#
            + #""mIterations":\#(iterations),"mSalt":\#(signed(salt))}"#
        let keyJSON = try String(decoding: JSONSerialization.data(withJSONObject: ["key": sealedSecret]), as: UTF8.self)
        let tokenJSON =
            #"{"algo":"SHA256","counter":50,"digits":7,"issuerExt":"Air Canada","label":"Benjamin","type":"HOTP"}"#
        return javaSerializedMap([("masterKey", masterJSON), ("u1", keyJSON), ("u1-token", tokenJSON)])
    }

    private static func seal(_ plaintext: Data, key: SecretBytes, token: String) throws -> String {
        let nonce = Data((0..<12).map { UInt8($0) })
        let sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce, associatedData: Data(token.utf8))
        let parameters = Data([0x30, 17, 0x04, 12]) + nonce + Data([0x02, 0x01, 16])
        return #"{"mCipher":"AES/GCM/NoPadding","mCipherText":\#(signed(sealed.ciphertext + sealed.tag)),"#
            + #""mParameters":\#(signed(parameters)),"mToken":"\#(token)"}"#
    }

    private static func signed(_ bytes: Data) -> String {
        "[" + bytes.map { String(Int8(bitPattern: $0)) }.joined(separator: ",") + "]"
    }

    /// A `HashMap<String, String>` as `ObjectOutputStream` writes it.
    private static func javaSerializedMap(_ pairs: [(String, String)]) -> Data {
        func utf(_ text: String) -> Data {
            Data([UInt8(text.utf8.count >> 8), UInt8(text.utf8.count & 0xFF)]) + Data(text.utf8)
        }
        var data = Data([0xAC, 0xED, 0x00, 0x05, 0x73, 0x72]) + utf("java.util.HashMap")
        data += Data([0x05, 0x07, 0xDA, 0xC1, 0xC3, 0x16, 0x60, 0xD1, 0x03, 0x00, 0x02])
        data += Data([UInt8(ascii: "F")]) + utf("loadFactor") + Data([UInt8(ascii: "I")]) + utf("threshold")
        data += Data([0x78, 0x70, 0x3F, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x77, 0x08, 0, 0, 0, 16])
        data += Data([0, 0, 0, UInt8(pairs.count)])
        for (key, value) in pairs { data += Data([0x74]) + utf(key) + Data([0x74]) + utf(value) }
        return data + Data([0x78])
    }
}
