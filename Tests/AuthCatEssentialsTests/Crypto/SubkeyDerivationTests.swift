import XCTest

@testable import AuthCatEssentials

final class SubkeyDerivationTests: XCTestCase {
    /// Expected values computed independently as BLAKE2b-256 keyed with the
    /// master key, salt = id (8 bytes, little-endian) + 8 zero bytes,
    /// personal = context + 8 zero bytes: what `crypto_kdf_derive_from_key` is.
    func testMatchesBLAKE2bWithSaltAndPersonalisation() throws {
        let master = SecretBytes(Array(0..<32).map(UInt8.init))
        let vectors: [(UInt64, String, String)] = [
            (1, "acsyncob", "1a8e2feb78539a55cd4ff5f279773584c64a430c5bcd5dbf1327ab8927b5f7a9"),
            (2, "acsyncob", "923e0e40abaab433169005f8c2a9f5433a2cb7a52a763dd5c2ba4a3d65ec06db"),
            (1, "acsynclk", "debc7dc276e3a7c2cc3f711a21aada8e342029826d14f2c409473eba1773d450"),
        ]
        for (id, context, expected) in vectors {
            let key = try SubkeyDerivation.derive(from: master, id: id, context: context)
            XCTAssertEqual(key.unprotectedData().map { String(format: "%02x", $0) }.joined(), expected)
        }
    }

    func testRefusesBadInput() {
        let master = SecretBytes(count: 32)
        XCTAssertThrowsError(try SubkeyDerivation.derive(from: SecretBytes(count: 31), id: 1, context: "acsyncob"))
        XCTAssertThrowsError(try SubkeyDerivation.derive(from: master, id: 1, context: "short"))
        XCTAssertThrowsError(try SubkeyDerivation.derive(from: master, id: 1, context: "acsyncob", length: 8))
    }
}
