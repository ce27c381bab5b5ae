import AuthCatCore
import AuthCatEssentials
import XCTest

final class SNTPServerTests: XCTestCase {
    func testParsesHostsPortsAndIPv6() throws {
        XCTAssertEqual(try SNTPServer(parsing: "pool.ntp.org"), SNTPServer(host: "pool.ntp.org", port: 123))
        XCTAssertEqual(try SNTPServer(parsing: "127.0.0.1:4123"), SNTPServer(host: "127.0.0.1", port: 4123))
        XCTAssertEqual(try SNTPServer(parsing: "::1"), SNTPServer(host: "::1", port: 123))
        XCTAssertEqual(try SNTPServer(parsing: "[::1]:999"), SNTPServer(host: "::1", port: 999))
        XCTAssertEqual(try SNTPServer(parsing: "[fe80::1]"), SNTPServer(host: "fe80::1", port: 123))
    }

    func testRefusesWhatIsNoServer() {
        for text in ["", ":123", "host:", "host:0", "host:65536", "host:port", "a b", "[::1]x"] {
            XCTAssertThrowsError(try SNTPServer(parsing: text), text) { error in
                XCTAssertTrue("\(error)".hasSuffix("is not a server; give HOST or HOST:PORT"), "\(error)")
            }
        }
    }

    func testDescribesItselfAsGiven() {
        XCTAssertEqual(SNTPServer(host: "pool.ntp.org").description, "pool.ntp.org")
        XCTAssertEqual(SNTPServer(host: "127.0.0.1", port: 5).description, "127.0.0.1:5")
        XCTAssertEqual(SNTPServer(host: "::1", port: 5).description, "[::1]:5")
    }
}
