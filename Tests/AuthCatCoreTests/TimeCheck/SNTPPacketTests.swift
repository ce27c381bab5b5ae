import AuthCatCore
import AuthCatEssentials
import XCTest

final class SNTPPacketTests: XCTestCase {
    func testRequestIsVersion4ClientModeWithTheTransmitTimestamp() {
        let bytes = SNTPPacket.request(transmit: 0x0102_0304_0506_0708).bytes
        XCTAssertEqual(bytes.count, 48)
        XCTAssertEqual(bytes[0], 0b00_100_011, "LI 0, VN 4, mode 3")
        XCTAssertEqual(Array(bytes[40..<48]), [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(bytes[1..<40].filter { $0 != 0 }.count, 0)
    }

    func testReadsWhatItWrites() throws {
        let packet = SNTPPacket(
            leapIndicator: 1, mode: 4, stratum: 3, referenceID: 0x5241_5445, originTimestamp: 7,
            receiveTimestamp: 8, transmitTimestamp: 9)
        XCTAssertEqual(SNTPPacket(bytes: packet.bytes), packet)
        XCTAssertNil(SNTPPacket(bytes: Array(packet.bytes.prefix(47))))
    }

    func testValidReply() {
        let reply = SNTPPacket(mode: 4, stratum: 1, originTimestamp: 42, receiveTimestamp: 1, transmitTimestamp: 2)
        XCTAssertNil(reply.problem(asReplyTo: 42))
    }

    func testProblems() {
        let good = SNTPPacket(mode: 4, stratum: 2, originTimestamp: 42, receiveTimestamp: 1, transmitTimestamp: 2)
        var packet = good
        packet.mode = 3
        XCTAssertEqual(packet.problem(asReplyTo: 42), "it is not a server reply (mode 3)")
        packet = good
        packet.stratum = 0
        packet.referenceID = 0x4445_4E59  // DENY
        XCTAssertEqual(packet.problem(asReplyTo: 42), "the server refused to answer (kiss-o'-death DENY)")
        packet = good
        packet.stratum = 16
        XCTAssertNotNil(packet.problem(asReplyTo: 42))
        packet = good
        packet.leapIndicator = 3
        XCTAssertNotNil(packet.problem(asReplyTo: 42))
        XCTAssertNotNil(good.problem(asReplyTo: 43), "an origin that is not ours")
        packet = good
        packet.transmitTimestamp = 0
        XCTAssertEqual(packet.problem(asReplyTo: 42), "it carries no time")
    }
}
