import AuthCatEssentials
import Foundation
import XCTest

final class SecretStreamTests: XCTestCase {
    private let ad = Data("header".utf8)

    func testChunksRoundTripInOrderWithFinalTag() throws {
        let key = try SecretBytes.random(count: SecretStream.keySize)
        let writer = try SecretStream.encrypting(key: key)
        XCTAssertEqual(writer.header.count, SecretStream.headerSize)
        let first = try writer.seal(Data("one".utf8), associatedData: ad)
        let last = try writer.seal(Data("two".utf8), associatedData: ad, tag: .final)
        XCTAssertEqual(first.count, 3 + SecretStream.overhead)

        let reader = try SecretStream.decrypting(key: key, header: writer.header)
        let one = try reader.open(first, associatedData: ad)
        XCTAssertEqual(one.plaintext, Data("one".utf8))
        XCTAssertEqual(one.tag, .message)
        let two = try reader.open(last, associatedData: ad)
        XCTAssertEqual(two.plaintext, Data("two".utf8))
        XCTAssertEqual(two.tag, .final)
        XCTAssertThrowsError(try reader.open(first, associatedData: ad), "nothing may follow the final chunk")
    }

    func testReorderedTamperedOrWronglyKeyedChunksAreRefused() throws {
        let key = try SecretBytes.random(count: SecretStream.keySize)
        let writer = try SecretStream.encrypting(key: key)
        let first = try writer.seal(Data("one".utf8), associatedData: ad)
        let second = try writer.seal(Data("two".utf8), associatedData: ad, tag: .final)

        XCTAssertThrowsError(
            try SecretStream.decrypting(key: key, header: writer.header).open(second, associatedData: ad))
        var flipped = first
        flipped[0] ^= 1
        XCTAssertThrowsError(
            try SecretStream.decrypting(key: key, header: writer.header).open(flipped, associatedData: ad))
        XCTAssertThrowsError(
            try SecretStream.decrypting(key: key, header: writer.header).open(first, associatedData: Data()))
        let otherKey = try SecretBytes.random(count: SecretStream.keySize)
        XCTAssertThrowsError(
            try SecretStream.decrypting(key: otherKey, header: writer.header).open(first, associatedData: ad))
        XCTAssertThrowsError(
            try SecretStream.decrypting(key: key, header: writer.header).open(first.prefix(5), associatedData: ad))
    }

    func testMisuseIsAnErrorNotACrash() throws {
        let key = try SecretBytes.random(count: SecretStream.keySize)
        XCTAssertThrowsError(try SecretStream.encrypting(key: SecretBytes(count: 3)))
        XCTAssertThrowsError(try SecretStream.decrypting(key: key, header: Data(count: 5)))
        let writer = try SecretStream.encrypting(key: key)
        _ = try writer.seal(Data(), tag: .final)
        XCTAssertThrowsError(try writer.seal(Data()), "a finished stream seals nothing more")
        XCTAssertThrowsError(try writer.open(Data(count: 40)))
    }
}
