import AuthCatEssentials
import XCTest

@testable import AuthCatCommandLine

/// The rendering decisions of `authcat code --watch`, without a terminal.
final class LiveCodeScreenTests: XCTestCase {
    private let github = LiveCodeEntry(
        label: "GitHub:alice", state: .expires(code: "123456", secondsLeft: 12, period: 30))
    private let steam = LiveCodeEntry(label: "Steam:bob", state: .expires(code: "ABCDE", secondsLeft: 3, period: 30))
    private let counter = LiveCodeEntry(label: "ci", state: .counterBased)

    private func plain(width: Int = 80, height: Int = 24) -> LiveCodeScreen {
        LiveCodeScreen(width: width, height: height, color: false)
    }

    // MARK: Countdown

    func testCountdownBarEmptiesOverThePeriod() {
        func status(_ seconds: Int, _ period: Int) -> String {
            LiveCodeEntry(label: "x", state: .expires(code: "1", secondsLeft: seconds, period: period)).statusText
        }
        XCTAssertEqual(status(30, 30), "30s ██████████")
        XCTAssertEqual(status(12, 30), "12s ████░░░░░░")
        // The last second of a step is the end of the bar: empty as the time runs out.
        XCTAssertEqual(status(2, 30), "2s  ░░░░░░░░░░")
        XCTAssertEqual(status(1, 30), "1s  ░░░░░░░░░░")
        XCTAssertEqual(status(0, 30), "0s  ░░░░░░░░░░")
        XCTAssertEqual(status(5, 10), "5s  ████░░░░░░", "mOTP's 10-second period")
        XCTAssertEqual(status(1, 10), "1s  ░░░░░░░░░░")
        XCTAssertEqual(status(60, 60), "60s ██████████")
        XCTAssertEqual(status(31, 60), "31s █████░░░░░")
        XCTAssertEqual(status(1, 1), "1s  ░░░░░░░░░░")
    }

    /// An HOTP code asked for by name stays on screen: it is valid until used.
    func testAnHOTPCodeAskedForByNameIsShown() {
        let entry = LiveCodeEntry(label: "ci", state: .counterCode("123456"))
        XCTAssertEqual(plain().lines([entry], title: "t"), ["t", "123456  hotp: valid until used  ci"])
    }

    func testEntryFromAnAccountCountsWholeSecondsLeft() {
        let start = Date(timeIntervalSince1970: 1_700_000_010)
        let account = Self.account(OTPParameters(kind: .totp, period: 30))
        let code = OTPCode(value: "654321", validFrom: start, validUntil: start + 30)
        XCTAssertEqual(
            LiveCodeEntry(account, code: code, at: start + 18.2).state,
            .expires(code: "654321", secondsLeft: 12, period: 30))
        XCTAssertEqual(LiveCodeEntry(account, code: nil, at: start).state, .unavailable)
    }

    // MARK: HOTP

    func testHOTPIsListedWithoutACode() {
        let account = Self.account(OTPParameters(kind: .hotp, counter: 7))
        // Even handed a code, the entry shows none: the view must never make one.
        let entry = LiveCodeEntry(account, code: OTPCode(value: "999999"), at: Date())
        XCTAssertEqual(entry.state, .counterBased)
        let lines = plain().lines([entry], title: "t")
        XCTAssertEqual(lines, ["t", "-  hotp: ask by name  ci"])
        XCTAssertFalse(lines.joined().contains("999999"))
    }

    // MARK: Rows

    func testRowsAlignCodesAndCountdowns() {
        let lines = plain().lines([github, steam, counter], title: "authcat code --watch · q to quit")
        XCTAssertEqual(
            lines,
            [
                "authcat code --watch · q to quit",
                "123456  12s ████░░░░░░     GitHub:alice",
                "ABCDE   3s  █░░░░░░░░░     Steam:bob",
                "-       hotp: ask by name  ci",
            ])
    }

    func testNoAccounts() {
        XCTAssertEqual(plain().lines([], title: "t"), ["t", "no accounts"])
    }

    func testRowsThatDoNotFitAreCounted() {
        let lines = plain(height: 3).lines([github, steam, counter], title: "t")
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(Array(lines.prefix(2)), ["t", "123456  12s ████░░░░░░     GitHub:alice"])
        XCTAssertEqual(lines[2], "… 2 more; make the window taller or give a QUERY")
        let one = plain(height: 1).lines([github, steam], title: "t")
        XCTAssertEqual(one.count, 1)
        XCTAssertTrue(one[0].hasPrefix("… "), one[0])
        XCTAssertEqual(plain(height: 0).lines([github], title: "t"), [])
        XCTAssertEqual(plain(width: 0).lines([github], title: "t"), [])
    }

    // MARK: Width

    func testNarrowWidthCutsLinesWithAnEllipsis() {
        let lines = plain(width: 20).lines([github, counter], title: "authcat code --watch · q to quit")
        XCTAssertEqual(
            lines,
            [
                "authcat code --watc…",
                "123456  12s ████░░░…",
                "-       hotp: ask b…",
            ])
        for line in lines { XCTAssertLessThanOrEqual(line.count, 20, line) }
    }

    func testLongLabelIsCutNotWrapped() {
        let long = LiveCodeEntry(
            label: "Example:" + String(repeating: "n", count: 100),
            state: .expires(code: "123456", secondsLeft: 9, period: 30))
        let lines = plain(width: 40, height: 5).lines([long], title: "t")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1].count, 40)
        XCTAssertTrue(lines[1].hasSuffix("n…"), lines[1])
    }

    func testNoWidthLeavesALineTooWideOrWithTrailingSpaces() {
        for width in 1...45 {
            for line in plain(width: width).lines([github, steam, counter], title: "authcat code --watch") {
                XCTAssertLessThanOrEqual(line.count, width, "width \(width): \(line)")
                XCTAssertFalse(line.hasSuffix(" "), "width \(width): '\(line)'")
            }
        }
    }

    // MARK: Colour

    func testColourMarksCodesTitleAndUrgentCountdowns() {
        let lines = LiveCodeScreen(width: 80, height: 24, color: true).lines([github, steam], title: "t")
        XCTAssertEqual(lines[0], "\u{1B}[2mt\u{1B}[0m")
        XCTAssertTrue(lines[1].hasPrefix("\u{1B}[1m123456\u{1B}[0m"), lines[1])
        XCTAssertFalse(lines[1].contains("\u{1B}[31m"), "12 s left is not urgent")
        XCTAssertTrue(lines[2].contains("\u{1B}[31m3s  █░░░░░░░░░"), "3 s left is: \(lines[2])")
    }

    func testNoColorMeansNoEscapeSequences() {
        XCTAssertFalse(LiveCodeScreen.usesColor(environment: ["NO_COLOR": "1"]))
        XCTAssertTrue(LiveCodeScreen.usesColor(environment: [:]))
        XCTAssertTrue(
            LiveCodeScreen.usesColor(environment: ["NO_COLOR": ""]), "no-color.org: only a non-empty value counts")
        let hostile = LiveCodeEntry(
            label: "Evil:\u{1B}[2Jname", state: .expires(code: "123456", secondsLeft: 2, period: 30))
        let screen = LiveCodeScreen(
            width: 80, height: 24, color: LiveCodeScreen.usesColor(environment: ["NO_COLOR": "1"]))
        let lines = screen.lines([github, hostile], title: "t")
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "\(lines)")
        XCTAssertTrue(lines[2].hasSuffix("Evil:\\u{1b}[2Jname"), lines[2])
    }

    private static func account(_ otp: OTPParameters) -> Account {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return Account(id: UUID(), issuer: "", name: "ci", otp: otp, createdAt: date, updatedAt: date)
    }
}
