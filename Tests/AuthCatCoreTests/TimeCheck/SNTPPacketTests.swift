import AuthCatCore
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
        let packet = SNTPPacket(leapIndicator: 1, mode: 4, stratum: 3, referenceID: 0x5241_5445, originTimestamp: 7,
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
        packet.referenceID = 0x4445_4E59 // DENY
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

    func testTimestampsRoundTripNearTheReference() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let stamp = NTPTimestamp.make(date)
        XCTAssertEqual(stamp >> 32, UInt64(1_700_000_000 + 2_208_988_800))
        XCTAssertEqual(NTPTimestamp.date(stamp, near: date).timeIntervalSince1970, 1_700_000_000.25, accuracy: 1e-6)
    }

    func testTimestampsAfter2036WrapIntoTheNextEra() {
        // 2040: past the end of NTP era 0 (2036-02-07).
        let date = Date(timeIntervalSince1970: 2_208_988_800)
        let stamp = NTPTimestamp.make(date)
        XCTAssertLessThan(stamp >> 32, UInt64(2_208_988_800 + 2_208_988_800))
        XCTAssertEqual(NTPTimestamp.date(stamp, near: date).timeIntervalSince1970, 2_208_988_800, accuracy: 1e-6)
    }

    func testOffsetAndDelayFollowRFC5905() {
        let base = Date(timeIntervalSince1970: 1_000)
        let measurement = SNTPMeasurement(sent: base, serverReceived: base + 300.1, serverSent: base + 300.2,
                                          received: base + 0.3, stratum: 1, address: "x")
        XCTAssertEqual(measurement.offset, 300, accuracy: 1e-6)
        XCTAssertEqual(measurement.delay, 0.2, accuracy: 1e-6)
    }
}
