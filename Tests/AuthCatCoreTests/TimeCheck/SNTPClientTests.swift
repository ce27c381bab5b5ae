import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import Synchronization
import XCTest

/// The SNTP client against a time server on loopback (`SNTPResponder`).
final class SNTPClientTests: XCTestCase {
    private var responder: SNTPResponder?

    override func tearDown() {
        responder?.stop()
        super.tearDown()
    }

    /// The client's deadline when the server answers: long, so that a busy machine
    /// cannot make the test fail; the tests of silence give their own short one.
    private static let answeredTimeout = 30.0

    private func client(_ behaviour: SNTPResponder.Behaviour, timeout: Double = answeredTimeout) throws -> SNTPClient {
        let responder = try SNTPResponder(behaviour)
        self.responder = responder
        return SNTPClient(server: SNTPServer(host: "127.0.0.1", port: UInt16(responder.port)), timeout: timeout)
    }

    func testMeasuresASkewedServer() throws {
        let (measurement, elapsed) = try Self.timed(client(.skewed(seconds: 300)))
        XCTAssertEqual(measurement.offset, 300, accuracy: Self.offsetError(elapsed))
        XCTAssertGreaterThanOrEqual(measurement.delay, 0)
        XCTAssertLessThanOrEqual(measurement.delay, elapsed + 0.01, "no longer than the whole measurement")
        XCTAssertEqual(measurement.stratum, 2)
        XCTAssertEqual(measurement.address, "127.0.0.1")
        XCTAssertEqual(responder?.requestCount, 1)
    }

    /// A measurement, and how long it took by this test's own reading of the
    /// clock the client stamps its packets with.
    private static func timed(_ client: SNTPClient) throws -> (SNTPMeasurement, elapsed: Double) {
        let start = Date()
        let measurement = try client.measure()
        return (measurement, Date().timeIntervalSince(start))
    }

    /// How far a measured offset may be from the responder's skew: the responder
    /// stamps its clock between the request's arrival and the reply's sending,
    /// so however the round trip splits, the error is at most half of it, and
    /// so at most half of the whole measurement as the test timed it (plus the
    /// 64-bit timestamps' rounding). A slow machine widens the bound rather
    /// than failing the test, and the bound does not come from the client.
    private static func offsetError(_ elapsed: Double) -> Double {
        elapsed / 2 + 0.01
    }

    func testMeasuresAServerBehindThisClock() throws {
        let (measurement, elapsed) = try Self.timed(client(.skewed(seconds: -45.5)))
        XCTAssertEqual(measurement.offset, -45.5, accuracy: Self.offsetError(elapsed))
    }

    func testMeasuresACorrectServerAsNoOffset() throws {
        let (measurement, elapsed) = try Self.timed(client(.skewed(seconds: 0)))
        XCTAssertEqual(measurement.offset, 0, accuracy: Self.offsetError(elapsed))
    }

    /// The server never answers: the client gives up at its own deadline
    /// (returning at all shows it), and says which it was.
    func testSilentServerTimesOutWithinTheTimeout() throws {
        let client = try client(.silent, timeout: 0.3)
        XCTAssertThrowsError(try client.measure()) { error in
            guard case .noAnswer(_, let seconds) = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertEqual(seconds, 0.3)
            XCTAssertTrue("\(error)".contains("no answer from the time server 127.0.0.1:"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("within 0.3 s"), "\(error)")
        }
        XCTAssertEqual(responder?.requestCount, 1, "the request arrived and was ignored")
    }

    /// The reply is sent only once the request has arrived and the test let
    /// it go: the client waits for an answer rather than giving up early.
    func testAReplyHeldBackIsStillTaken() throws {
        let client = try client(.held(seconds: 300), timeout: 60)
        let responder = try XCTUnwrap(responder)
        let measured = DispatchGroup()
        let outcome = Mutex<Result<(SNTPMeasurement, elapsed: Double), any Error>?>(nil)
        DispatchQueue.global().async(group: measured) {
            let result = Result { try Self.timed(client) }
            outcome.withLock { $0 = result }
        }
        XCTAssertTrue(responder.waitForRequests(1), "the request arrived")
        XCTAssertNil(outcome.withLock { $0 }, "no answer yet, and the client still waits")
        responder.release()
        measured.wait()
        let (measurement, elapsed) = try XCTUnwrap(outcome.withLock { $0 }).get()
        // The reply was stamped when the request came: the time held back is half in the offset, all in the delay.
        XCTAssertEqual(measurement.offset, 300, accuracy: Self.offsetError(elapsed))
        XCTAssertLessThanOrEqual(measurement.delay, elapsed + 0.01, "no longer than the whole measurement")
        XCTAssertEqual(measurement.stratum, 2)
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
        XCTAssertThrowsError(try client(.wrongOrigin, timeout: 2).measure()) { error in
            guard case .badReply(_, let reason) = error as? SNTPError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("origin"), reason)
        }
    }

    /// A forger (or a late reply) cannot stop the check with one datagram:
    /// the real reply that follows is measured.
    func testPassesOverAReplyToAnotherRequestAndMeasuresTheRealOne() throws {
        let (measurement, elapsed) = try Self.timed(client(.strayThenSkewed(seconds: 300)))
        XCTAssertEqual(measurement.offset, 300, accuracy: Self.offsetError(elapsed))
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
