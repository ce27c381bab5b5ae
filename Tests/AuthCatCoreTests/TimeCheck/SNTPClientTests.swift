import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import XCTest

/// The SNTP client against a time server on loopback (`SNTPResponder`).
final class SNTPClientTests: XCTestCase {
    private var responder: SNTPResponder?

    override func tearDown() {
        responder?.stop()
        super.tearDown()
    }

    private func client(_ behaviour: SNTPResponder.Behaviour, timeout: Double = 2) throws -> SNTPClient {
        let responder = try SNTPResponder(behaviour)
        self.responder = responder
        return SNTPClient(server: SNTPServer(host: "127.0.0.1", port: UInt16(responder.port)), timeout: timeout)
    }

    func testMeasuresASkewedServer() throws {
        let measurement = try client(.skewed(seconds: 300)).measure()
        XCTAssertEqual(measurement.offset, 300, accuracy: 1)
        XCTAssertGreaterThanOrEqual(measurement.delay, 0)
        XCTAssertLessThan(measurement.delay, 1)
        XCTAssertEqual(measurement.stratum, 2)
        XCTAssertEqual(measurement.address, "127.0.0.1")
        XCTAssertEqual(responder?.requestCount, 1)
    }

    func testMeasuresAServerBehindThisClock() throws {
        let measurement = try client(.skewed(seconds: -45.5)).measure()
        XCTAssertEqual(measurement.offset, -45.5, accuracy: 1)
    }

    func testMeasuresACorrectServerAsNoOffset() throws {
        let measurement = try client(.skewed(seconds: 0)).measure()
        XCTAssertEqual(measurement.offset, 0, accuracy: 1)
    }

    func testSilentServerTimesOutWithinTheTimeout() throws {
        let client = try client(.silent, timeout: 0.3)
        let start = Date()
        XCTAssertThrowsError(try client.measure()) { error in
            guard case .noAnswer = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("no answer from the time server 127.0.0.1:"), "\(error)")
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 0.25, "it waited for the answer")
        XCTAssertLessThan(elapsed, 10, "it did not hang")
        XCTAssertEqual(responder?.requestCount, 1, "the request arrived and was ignored")
    }

    func testNothingListeningIsNoAnswer() throws {
        let port = try FreePort.find()
        let client = SNTPClient(server: SNTPServer(host: "127.0.0.1", port: UInt16(port)), timeout: 0.3)
        XCTAssertThrowsError(try client.measure()) { error in
            guard case .noAnswer = error as? SNTPError else { return XCTFail("\(error)") }
        }
    }

    func testRefusesAReplyInTheWrongMode() throws {
        XCTAssertThrowsError(try client(.wrongMode).measure()) { error in
            guard case .badReply(_, let reason) = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("mode 3"), reason)
        }
    }

    func testRefusesAReplyToAnotherRequest() throws {
        XCTAssertThrowsError(try client(.wrongOrigin, timeout: 0.5).measure()) { error in
            guard case .badReply(_, let reason) = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("origin"), reason)
        }
    }

    /// A forger (or a late reply) cannot stop the check with one datagram:
    /// the real reply that follows is measured.
    func testPassesOverAReplyToAnotherRequestAndMeasuresTheRealOne() throws {
        let measurement = try client(.strayThenSkewed(seconds: 300)).measure()
        XCTAssertEqual(measurement.offset, 300, accuracy: 1)
    }

    func testKissOfDeathIsNoTime() throws {
        XCTAssertThrowsError(try client(.kissOfDeath).measure()) { error in
            guard case .badReply(_, let reason) = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("kiss-o'-death RATE"), reason)
        }
    }

    func testAnUnknownHostIsUnresolvable() {
        let client = SNTPClient(server: SNTPServer(host: "no-such-host.invalid"), timeout: 0.5)
        XCTAssertThrowsError(try client.measure()) { error in
            guard case .unresolvable = error as? SNTPError else { return XCTFail("\(error)") }
        }
    }
}
