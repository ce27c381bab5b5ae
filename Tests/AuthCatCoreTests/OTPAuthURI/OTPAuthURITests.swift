import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

final class OTPAuthURITests: XCTestCase {
    private let secretText = "JBSWY3DPEHPK3PXP"
    private lazy var secret = try? Base32.decode(secretText)

    // MARK: Parsing

    func testParsesTheKeyUriFormatExample() throws {
        let draft = try OTPAuthURI.parse(
            "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example")
        XCTAssertEqual(draft.issuer, "Example")
        XCTAssertEqual(draft.name, "alice@google.com")
        XCTAssertEqual(draft.otp, OTPParameters(kind: .totp, algorithm: .sha1, digits: 6, period: 30))
        XCTAssertEqual(draft.secret, secret)
        XCTAssertEqual(draft.tags, [])
        XCTAssertEqual(draft.note, "")
    }

    func testParsesEveryParameter() throws {
        let totp = try OTPAuthURI.parse(
            "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA512&digits=8&period=60"
        )
        XCTAssertEqual(totp.issuer, "ACME Co")
        XCTAssertEqual(totp.name, "john.doe@email.com")
        XCTAssertEqual(totp.otp, OTPParameters(kind: .totp, algorithm: .sha512, digits: 8, period: 60))
        XCTAssertEqual(totp.secret.count, 20)

        let hotp = try OTPAuthURI.parse(
            "otpauth://hotp/Bank:me?secret=\(secretText)&algorithm=sha256&digits=10&counter=42")
        XCTAssertEqual(hotp.otp, OTPParameters(kind: .hotp, algorithm: .sha256, digits: 10, counter: 42))
        XCTAssertEqual(hotp.issuer, "Bank")
    }

    func testForgivesCaseSurroundingSpaceAndFragments() throws {
        let draft = try OTPAuthURI.parse(
            " \nOTPAuth://TOTP/Example:alice?SECRET=jbsw%20y3dp-ehpk3pxp%3D%3D&Issuer=Example&Algorithm=Sha-256#top \n")
        XCTAssertEqual(draft.otp.algorithm, .sha256)
        XCTAssertEqual(draft.issuer, "Example")
        XCTAssertEqual(draft.name, "alice")
        XCTAssertEqual(draft.secret, secret)
    }

    func testAcceptsAlgorithmSpellings() throws {
        let cases: [(String, OTPAlgorithm)] = [
            ("SHA1", .sha1), ("sha1", .sha1), ("SHA-1", .sha1), ("Sha256", .sha256), ("SHA-256", .sha256),
            ("HmacSHA256", .sha256), ("sha512", .sha512), ("HMAC-SHA512", .sha512),
        ]
        for (name, algorithm) in cases {
            XCTAssertEqual(
                try OTPAuthURI.parse("otpauth://totp/X:y?secret=\(secretText)&algorithm=\(name)").otp.algorithm,
                algorithm, name)
        }
    }

    func testAcceptsLabelVariants() throws {
        let cases: [(label: String, issuer: String, name: String)] = [
            ("Example:alice", "Example", "alice"),
            ("Example%3Aalice", "Example", "alice"),
            ("Example%3aalice", "Example", "alice"),
            ("Example: alice", "Example", "alice"),
            ("Example:%20%20alice", "Example", "alice"),
            ("alice", "", "alice"),
            ("My%20Bank:alice+tag@example.com", "My Bank", "alice+tag@example.com"),
            ("%E6%97%A5%E6%9C%AC:%E5%A4%AA%E9%83%8E", "日本", "太郎"),
        ]
        for (label, issuer, name) in cases {
            let draft = try OTPAuthURI.parse("otpauth://totp/\(label)?secret=\(secretText)")
            XCTAssertEqual(draft.issuer, issuer, label)
            XCTAssertEqual(draft.name, name, label)
        }
    }

    func testIssuerParameterWinsOverLabelPrefix() throws {
        let mismatched = try OTPAuthURI.parse("otpauth://totp/Old%20Name:alice?secret=\(secretText)&issuer=New%20Name")
        XCTAssertEqual(mismatched.issuer, "New Name")
        XCTAssertEqual(mismatched.name, "alice")

        let withoutPrefix = try OTPAuthURI.parse("otpauth://totp/alice?secret=\(secretText)&issuer=Example")
        XCTAssertEqual(withoutPrefix.issuer, "Example")
        XCTAssertEqual(withoutPrefix.name, "alice")

        let emptyIssuer = try OTPAuthURI.parse("otpauth://totp/Example:alice?secret=\(secretText)&issuer=")
        XCTAssertEqual(emptyIssuer.issuer, "Example")
        XCTAssertEqual(emptyIssuer.name, "alice")

        // The prefix that matches the issuer is removed whole, colon and all.
        let colonInIssuer = try OTPAuthURI.parse("otpauth://totp/a:b:c?secret=\(secretText)&issuer=a%3Ab")
        XCTAssertEqual(colonInIssuer.issuer, "a:b")
        XCTAssertEqual(colonInIssuer.name, "c")
    }

    func testPlusIsASpaceInParametersButNotInTheLabel() throws {
        let draft = try OTPAuthURI.parse("otpauth://totp/ACME+Co:a+b?secret=\(secretText)&issuer=ACME+Co")
        XCTAssertEqual(draft.issuer, "ACME Co")
        XCTAssertEqual(draft.name, "a+b")
    }

    func testFirstOccurrenceOfAParameterWinsAndUnknownOnesAreIgnored() throws {
        let draft = try OTPAuthURI.parse(
            "otpauth://totp/X:y?image=https%3A%2F%2Fexample.com%2Fa.png&secret=\(secretText)&digits=7&digits=8&foo&&bar=%ZZ"
        )
        XCTAssertEqual(draft.otp.digits, 7)
        XCTAssertEqual(draft.secret, secret)
    }

    func testTOTPIgnoresCounterAndHOTPIgnoresPeriod() throws {
        XCTAssertEqual(try OTPAuthURI.parse("otpauth://totp/X:y?secret=\(secretText)&counter=abc").otp.counter, 0)
        XCTAssertEqual(
            try OTPAuthURI.parse("otpauth://hotp/X:y?secret=\(secretText)&counter=1&period=0").otp.period, 30)
    }

    func testReadsSteamAccounts() throws {
        let uris = [
            "otpauth://totp/Steam:gabe?secret=\(secretText)&issuer=Steam",
            "otpauth://totp/Steam:gabe?secret=\(secretText)",
            "otpauth://totp/Valve:gabe?secret=\(secretText)&encoder=STEAM&digits=6",
            "otpauth://steam/Steam:gabe?secret=\(secretText)&digits=5",
        ]
        for uri in uris {
            let draft = try OTPAuthURI.parse(uri)
            XCTAssertEqual(draft.otp, OTPParameters(kind: .steam, digits: 5, period: 30), uri)
            XCTAssertEqual(draft.name, "gabe", uri)
        }
    }

    func testCountersUpToInt64MaxAreAccepted() throws {
        let draft = try OTPAuthURI.parse("otpauth://hotp/X:y?secret=\(secretText)&counter=9223372036854775807")
        XCTAssertEqual(draft.otp.counter, UInt64(Int64.max))
    }

    // MARK: Rejections

    func testRejectsMalformedURIsWithTheirReason() {
        let s = secretText
        let cases: [(String, OTPAuthURIError)] = [
            ("", .notOTPAuth),
            ("JBSWY3DPEHPK3PXP", .notOTPAuth),
            ("https://totp/X:y?secret=\(s)", .notOTPAuth),
            ("otpauth:totp/X:y?secret=\(s)", .notOTPAuth),
            ("otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8", .migrationExport),
            ("otpauth://motp/X:y?secret=\(s)", .unknownType),
            ("otpauth:///X:y?secret=\(s)", .unknownType),
            ("otpauth://totp?secret=\(s)", .missingLabel),
            ("otpauth://totp/?secret=\(s)", .missingLabel),
            ("otpauth://totp/X:?secret=\(s)", .missingAccountName),
            ("otpauth://totp/X:%20?secret=\(s)&issuer=X", .missingAccountName),
            ("otpauth://totp/X%ZZ:y?secret=\(s)", .invalidEncoding(part: "label")),
            ("otpauth://totp/X%FF:y?secret=\(s)", .invalidEncoding(part: "label")),
            ("otpauth://totp/X:y", .missingSecret),
            ("otpauth://totp/X:y?issuer=X", .missingSecret),
            ("otpauth://totp/X:y?secret=", .missingSecret),
            ("otpauth://totp/X:y?secret=%20+", .missingSecret),
            ("otpauth://totp/X:y?secret=\(s)1", .invalidSecret(.invalidCharacter("1", position: 17))),
            ("otpauth://totp/X:y?secret=A", .invalidSecret(.invalidLength(1))),
            ("otpauth://yaotp/X:y?secret=\(s)", .invalidPIN(.yandexSecretLength(10))),
            ("otpauth://yaotp/X:y?secret=AA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI", .invalidPIN(.yandexChecksum)),
            ("otpauth://yaotp/X:y?secret=LA2V6KMCGYMWWVEW64RNP3JA3I&pin=1", .invalidPIN(.invalid)),
            ("motp://X:y?secret=e3152afee62599c", .invalidHexSecret(.oddLength(15))),
            ("motp://X:y?secret=\(s)", .invalidHexSecret(.invalidCharacter(position: 1))),
            ("motp://?secret=e3152afee62599c8", .missingLabel),
            ("otpauth://totp/X:y?secret=\(s)%", .invalidEncoding(part: "secret parameter")),
            ("otpauth://totp/X:y?secret=\(s)&issuer=%E2%82", .invalidEncoding(part: "issuer parameter")),
            ("otpauth://totp/X:y?secret=\(s)&algorithm=MD5", .unknownAlgorithm),
            ("otpauth://totp/X:y?secret=\(s)&algorithm=sha384", .unknownAlgorithm),
            ("otpauth://totp/X:y?secret=\(s)&algorithm=", .unknownAlgorithm),
            ("otpauth://totp/X:y?secret=\(s)&digits=six", .invalidNumber(parameter: "digits")),
            ("otpauth://totp/X:y?secret=\(s)&digits=", .invalidNumber(parameter: "digits")),
            ("otpauth://totp/X:y?secret=\(s)&digits=5", .invalidParameter(.digits(5, steam: false))),
            ("otpauth://hotp/X:y?secret=\(s)&counter=0&digits=11", .invalidParameter(.digits(11, steam: false))),
            ("otpauth://totp/X:y?secret=\(s)&period=0", .invalidParameter(.period(0))),
            ("otpauth://totp/X:y?secret=\(s)&period=-30", .invalidParameter(.period(-30))),
            ("otpauth://totp/X:y?secret=\(s)&period=1.5", .invalidNumber(parameter: "period")),
            ("otpauth://totp/X:y?secret=\(s)&period=99999999999999999999", .invalidNumber(parameter: "period")),
            ("otpauth://hotp/X:y?secret=\(s)", .missingCounter),
            ("otpauth://hotp/X:y?secret=\(s)&counter=-1", .invalidNumber(parameter: "counter")),
            ("otpauth://hotp/X:y?secret=\(s)&counter=9223372036854775808", .invalidParameter(.counter)),
            ("otpauth://hotp/X:y?secret=\(s)&counter=99999999999999999999999", .invalidParameter(.counter)),
            ("otpauth://hotp/X:y?secret=\(s)&counter=0&encoder=steam", .steamWithHOTP),
        ]
        for (uri, expected) in cases {
            XCTAssertThrowsError(try OTPAuthURI.parse(uri), uri) { error in
                XCTAssertEqual(error as? OTPAuthURIError, expected, uri)
            }
        }
    }

    // MARK: Yandex and mOTP, as Aegis writes them

    func testReadsYandexURIsWithAndWithoutPIN() throws {
        // The PIN is the Base32 of its UTF-8 bytes: "7586" is G42TQNQ.
        let withPIN = try OTPAuthURI.parse(
            "otpauth://yaotp/Yandex:ivan?secret=LA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI&pin=G42TQNQ&algorithm=SHA256&digits=8&period=30"
        )
        XCTAssertEqual(withPIN.otp, OTPParameters(kind: .yandex))
        XCTAssertEqual(withPIN.issuer, "Yandex")
        XCTAssertEqual(
            withPIN.secret, try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I"),
            "the checksum form is cut to its 16-byte key")
        XCTAssertEqual(withPIN.pin, SecretBytes(utf8: "7586"))
        let withoutPIN = try OTPAuthURI.parse("otpauth://yaotp/ivan?secret=LA2V6KMCGYMWWVEW64RNP3JA3I")
        XCTAssertNil(withoutPIN.pin)
        XCTAssertThrowsError(try withoutPIN.checkPIN())
    }

    func testReadsMOTPURIs() throws {
        let draft = try OTPAuthURI.parse("motp://PfSense:jimmy?secret=E3152AFEE62599C8&pin=GEZDGNA")
        XCTAssertEqual(draft.otp, OTPParameters(kind: .motp))
        XCTAssertEqual([draft.issuer, draft.name], ["PfSense", "jimmy"])
        XCTAssertEqual(Base16.encode(draft.secret), "e3152afee62599c8")
        XCTAssertEqual(draft.pin, SecretBytes(utf8: "1234"))
        XCTAssertNil(try OTPAuthURI.parse("motp://jimmy?secret=e3152afee62599c8").pin)
    }

    func testMakesYandexAndMOTPURIsThatReadBack() throws {
        let key = try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I")
        let yandex = OTPAuthURI.make(
            issuer: "Yandex", name: "ivan", parameters: OTPParameters(kind: .yandex), secret: key,
            pin: SecretBytes(utf8: "7586"))
        XCTAssertEqual(
            yandex,
            "otpauth://yaotp/Yandex:ivan?secret=LA2V6KMCGYMWWVEW64RNP3JA3I&issuer=Yandex&algorithm=SHA256&digits=8&period=30&pin=G42TQNQ"
        )
        let motp = OTPAuthURI.make(
            issuer: "PfSense", name: "jimmy", parameters: OTPParameters(kind: .motp),
            secret: try Base16.decode("e3152afee62599c8"), pin: SecretBytes(utf8: "1234"))
        XCTAssertEqual(motp, "motp://PfSense:jimmy?secret=e3152afee62599c8&issuer=PfSense&pin=GEZDGNA")
        for uri in [yandex, motp] {
            let draft = try OTPAuthURI.parse(uri)
            XCTAssertNoThrow(try draft.checkPIN(), uri)
            XCTAssertEqual(
                OTPAuthURI.make(
                    issuer: draft.issuer, name: draft.name, parameters: draft.otp, secret: draft.secret,
                    pin: draft.pin), uri)
        }
    }

    func testMD5IsNotAnAlgorithmOfOTPAuthURIs() {
        XCTAssertThrowsError(try OTPAuthURI.parse("otpauth://totp/X:y?secret=\(secretText)&algorithm=MD5")) {
            XCTAssertEqual($0 as? OTPAuthURIError, .unknownAlgorithm)
        }
    }

    func testNonCanonicalSecretLengthsAreReadAndReported() throws {
        let draft = try OTPAuthURI.parse("otpauth://totp/2FAS:me?secret=JBSWY3DPEHPK3PXPQ")
        XCTAssertEqual(Base16.encode(draft.secret), "48656c6c6f21deadbeef")
        XCTAssertEqual(draft.secretLeftover?.characters, 17)
        XCTAssertNil(try OTPAuthURI.parse("otpauth://totp/X:y?secret=\(secretText)").secretLeftover)
    }

    func testErrorsNeverContainTheSecret() {
        let s = secretText
        let uris = [
            "otpauth://motp/X:y?secret=\(s)", "otpauth://totp/X:?secret=\(s)", "motp://X:y?secret=\(s)&pin=\(s)",
            "otpauth://yaotp/X:y?secret=\(s)&pin=\(s)", "otpauth://totp/X:y?secret=\(s)!",
            "otpauth://totp/X:y?secret=\(s)&algorithm=\(s)", "otpauth://totp/X:y?secret=\(s)&digits=\(s)",
            "otpauth://hotp/X:y?secret=\(s)&counter=\(s)", "https://totp/X:y?secret=\(s)",
            "otpauth://totp/X%ZZ:y?secret=\(s)",
        ]
        for uri in uris {
            XCTAssertThrowsError(try OTPAuthURI.parse(uri), uri) { error in
                let description = String(describing: error)
                XCTAssertFalse(description.contains("JBSWY3DP"), description)
                XCTAssertFalse(description.contains("jbswy3dp"), description)
                XCTAssertFalse(description.contains("X:y"), description)
            }
        }
    }

    func testEveryErrorExplainsItself() {
        let errors: [OTPAuthURIError] = [
            .notOTPAuth, .migrationExport, .unknownType, .missingLabel, .missingAccountName, .missingSecret,
            .invalidSecret(.empty), .invalidEncoding(part: "label"), .unknownAlgorithm,
            .invalidNumber(parameter: "digits"), .missingCounter, .steamWithHOTP, .invalidParameter(.period(0)),
        ]
        XCTAssertEqual(Set(errors.map(\.description)).count, errors.count)
        XCTAssertTrue(OTPAuthURIError.invalidSecret(.invalidLength(3)).description.contains("3 Base32 characters"))
        XCTAssertNotEqual(
            OTPAuthURIError.invalidPIN(.empty).description, OTPAuthURIError.invalidHexSecret(.empty).description)
        XCTAssertTrue(
            OTPAuthURIError.invalidParameter(.period(0)).description.contains("period must be at least 1 second"))
        XCTAssertTrue(OTPAuthURIError.unknownAlgorithm.description.contains("SHA1, SHA256 or SHA512"))
    }

    /// A megabyte is refused with the same exact error as a short text is:
    /// garbage is no otpauth URI; a megabyte label whose only broken escape is
    /// its last is refused for its encoding (so the whole label was read); a
    /// megabyte secret whose only wrong character is its last is refused at
    /// that very position. Nothing here is timed (timings belong in scripts/bench).
    func testCopesWithAMegabyteOfGarbage() {
        let megabyte = 1 << 20
        let garbage = String(repeating: "%Zq&=:/?", count: megabyte / 8)
        XCTAssertThrowsError(try OTPAuthURI.parse(garbage)) { error in
            XCTAssertEqual(error as? OTPAuthURIError, .notOTPAuth)
        }
        XCTAssertThrowsError(try OTPAuthURI.parse("otpauth://totp/" + garbage)) { error in
            XCTAssertEqual(error as? OTPAuthURIError, .invalidEncoding(part: "label"))
        }
        let longLabel = String(repeating: "a", count: megabyte) + "%Zq"
        XCTAssertThrowsError(try OTPAuthURI.parse("otpauth://totp/" + longLabel + "?secret=JBSWY3DPEHPK3PXP")) {
            XCTAssertEqual($0 as? OTPAuthURIError, .invalidEncoding(part: "label"))
        }
        XCTAssertThrowsError(
            try OTPAuthURI.parse("otpauth://totp/X:y?secret=" + String(repeating: "A", count: megabyte) + "1")
        ) { error in
            XCTAssertEqual(
                error as? OTPAuthURIError, .invalidSecret(.invalidCharacter("1", position: megabyte + 1)))
        }
    }

    // MARK: Making

    func testMakesTOTPURI() throws {
        let uri = OTPAuthURI.make(
            issuer: "ACME Co", name: "john.doe@email.com",
            parameters: OTPParameters(), secret: try XCTUnwrap(secret))
        XCTAssertEqual(
            uri,
            "otpauth://totp/ACME%20Co:john.doe@email.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30"
        )
    }

    func testMakesHOTPURIWithoutIssuer() throws {
        let uri = OTPAuthURI.make(
            issuer: "", name: "alice",
            parameters: OTPParameters(kind: .hotp, algorithm: .sha512, digits: 8, counter: 7),
            secret: try XCTUnwrap(secret))
        XCTAssertEqual(uri, "otpauth://hotp/alice?secret=JBSWY3DPEHPK3PXP&algorithm=SHA512&digits=8&counter=7")
    }

    func testMakesSteamURI() throws {
        let uri = OTPAuthURI.make(
            issuer: "Steam", name: "gabe", parameters: OTPParameters(kind: .steam), secret: try XCTUnwrap(secret))
        XCTAssertEqual(
            uri,
            "otpauth://totp/Steam:gabe?secret=JBSWY3DPEHPK3PXP&issuer=Steam&algorithm=SHA1&digits=5&period=30&encoder=steam"
        )
    }

    func testEscapesEverythingThatWouldChangeTheMeaning() throws {
        let uri = OTPAuthURI.make(
            issuer: "a&b", name: "c:d ?#%+/=", parameters: OTPParameters(), secret: try XCTUnwrap(secret))
        XCTAssertEqual(
            uri,
            "otpauth://totp/a%26b:c%3Ad%20%3F%23%25%2B%2F%3D?secret=JBSWY3DPEHPK3PXP&issuer=a%26b&algorithm=SHA1&digits=6&period=30"
        )
    }

    func testRoundTripsNamesIssuersAndParameters() throws {
        let secret = try SecretBytes.random(count: 20)
        let labels: [(issuer: String, name: String)] = [
            ("GitHub", "alice"), ("", "alice"), ("ACME Co", "john.doe@email.com"), ("Bank & Trust", "a+b@example.com"),
            ("a:b", "c"), ("a", "b:c"), ("", "a:b"), ("", ":leading"), ("Is:su:er", "na:me"), ("100%", "50% off?"),
            ("日本銀行", "太郎"), ("Café", "naïve 👩‍💻"), ("x", "a=b&c=d#e"), ("Plus+", "+"), ("slash/", "/path/"),
            ("GitHub", "github:alice"), ("Issuer ", "trailing space "),
        ]
        let parameterSets = [
            OTPParameters(), OTPParameters(algorithm: .sha256, digits: 8, period: 60),
            OTPParameters(kind: .hotp, algorithm: .sha512, digits: 10, counter: UInt64(Int64.max)),
            OTPParameters(kind: .steam), OTPParameters(kind: .steam, algorithm: .sha256, period: 15),
        ]
        for (issuer, name) in labels {
            for parameters in parameterSets {
                let uri = OTPAuthURI.make(issuer: issuer, name: name, parameters: parameters, secret: secret)
                let draft = try OTPAuthURI.parse(uri)
                XCTAssertEqual(draft.issuer, issuer, uri)
                XCTAssertEqual(draft.name, name, uri)
                XCTAssertEqual(draft.otp, parameters, uri)
                XCTAssertEqual(draft.secret, secret, uri)
            }
        }
    }

    func testMadeURIsAreReadableByFoundation() throws {
        let uri = OTPAuthURI.make(
            issuer: "Bank & Trust", name: "日本 a:b", parameters: OTPParameters(), secret: try XCTUnwrap(secret))
        let components = try XCTUnwrap(URLComponents(string: uri))
        XCTAssertEqual(components.scheme, "otpauth")
        XCTAssertEqual(components.host, "totp")
        XCTAssertEqual(components.path, "/Bank & Trust:日本 a:b")
        XCTAssertEqual(components.queryItems?.first { $0.name == "issuer" }?.value, "Bank & Trust")
    }
}
