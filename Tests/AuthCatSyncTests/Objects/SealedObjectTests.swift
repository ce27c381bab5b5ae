import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatSync

final class SealedObjectTests: XCTestCase {
    let key = try! SecretBytes.random(count: 32)

    func seal(_ payload: Data, name: String = "authcat-v/d/b-0000000001") throws -> Data {
        try SealedObject.seal(payload, key: key, vault: "v", device: "d", name: name)
    }

    func testSizesArePowersOfTwoFrom512() throws {
        XCTAssertEqual(try seal(Data()).count, 512)
        XCTAssertEqual(try seal(Data(count: 471)).count, 512)
        XCTAssertEqual(try seal(Data(count: 472)).count, 1024)
        XCTAssertEqual(try seal(Data(count: 100_000)).count, 131_072)
    }

    func testOpensToThePayload() throws {
        let payload = Data("{\"a\":1}".utf8)
        XCTAssertEqual(
            try SealedObject.open(seal(payload), key: key, vault: "v", device: "d", name: "authcat-v/d/b-0000000001"),
            payload)
        XCTAssertEqual(
            try SealedObject.open(seal(Data()), key: key, vault: "v", device: "d", name: "authcat-v/d/b-0000000001"),
            Data())
    }

    func testAnyChangedByteNameDeviceOrVaultFailsAuthentication() throws {
        let name = "authcat-v/d/b-0000000001"
        let object = try seal(Data("payload".utf8))
        var flipped = object
        flipped[300] ^= 1
        let cases: [(Data, String, String, String)] = [
            (flipped, "v", "d", name), (object.prefix(400), "v", "d", name),
            (object, "v", "d", "authcat-v/d/b-0000000002"), (object, "v", "e", name), (object, "w", "d", name),
        ]
        for (data, vault, device, objectName) in cases {
            XCTAssertThrowsError(try SealedObject.open(data, key: key, vault: vault, device: device, name: objectName))
            { error in
                XCTAssertEqual(error as? SyncObjectError, .notAuthentic)
            }
        }
    }
}
