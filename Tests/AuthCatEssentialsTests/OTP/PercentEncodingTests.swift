import AuthCatEssentials
import XCTest

final class PercentEncodingTests: XCTestCase {
    func testKeepsUnreservedCharactersAndAtSign() {
        XCTAssertEqual(PercentEncoding.encode("AZaz09-._~@"), "AZaz09-._~@")
    }

    func testEscapesEverythingElseAsUppercaseUTF8() {
        XCTAssertEqual(
            PercentEncoding.encode(" :/?#[]!$&'()*+,;=%"), "%20%3A%2F%3F%23%5B%5D%21%24%26%27%28%29%2A%2B%2C%3B%3D%25")
        XCTAssertEqual(PercentEncoding.encode("é日"), "%C3%A9%E6%97%A5")
    }

    func testDecodesEitherCaseOfHex() {
        XCTAssertEqual(PercentEncoding.decode("a%3Ab%3ac%C3%A9", plusAsSpace: false), "a:b:cé")
    }

    func testPlusIsASpaceOnlyWhenAsked() {
        XCTAssertEqual(PercentEncoding.decode("a+b%2B", plusAsSpace: true), "a b+")
        XCTAssertEqual(PercentEncoding.decode("a+b%2B", plusAsSpace: false), "a+b+")
    }

    func testRejectsBrokenEscapesAndInvalidUTF8() {
        for text: Substring in ["%", "%4", "%G0", "a%2", "%FF", "%C3", "%E2%82"] {
            XCTAssertNil(PercentEncoding.decode(text, plusAsSpace: false), String(text))
        }
    }

    func testRoundTrips() {
        for text in ["", "plain", "a b&c=d?e#f%g+h/i:j", "日本語 👩‍💻", "\u{0}\u{7F}"] {
            XCTAssertEqual(PercentEncoding.decode(Substring(PercentEncoding.encode(text)), plusAsSpace: true), text)
        }
    }
}
