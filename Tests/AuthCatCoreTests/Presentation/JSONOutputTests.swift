@testable import AuthCatCore
import Foundation
import XCTest

/// `JSONOutput` writes its own text, which must be `JSONEncoder`'s byte for
/// byte (but `[]` for an empty array): every `--json` output depends on it.
final class JSONOutputTests: XCTestCase {
    private struct Sample: Encodable {
        var text: String
        var number: Int?
        var list: [String]
        var date: Date
        var counter: UInt64?
        var real: Double
        var table: [String: [Int]]
        var flag: Bool
        var when: Date?
    }

    private struct Nest: Encodable {
        var samples: [Sample]
        var account: AccountSummary?
        var grid: [[Int]]
    }

    /// Asks for its keyed container twice and sets one key twice.
    private struct Repeating: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ text: String) { stringValue = text }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            var first = encoder.container(keyedBy: Key.self)
            try first.encode(1, forKey: Key("k"))
            try first.encode(2, forKey: Key("k"))
            var second = encoder.container(keyedBy: Key.self)
            try second.encode("x", forKey: Key("a"))
        }
    }

    private struct Empty: Encodable {
        func encode(to encoder: Encoder) throws {
            _ = encoder.container(keyedBy: Repeating.Key.self)
        }
    }

    private struct Wrapper: Encodable {
        var sample: Sample
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(sample)
        }
    }

    /// Every control character, quotes, backslashes, slashes, line and paragraph separators, combining marks, emoji.
    private static let awkward: String = {
        var text = ""
        for value in 0..<0x300 { text.unicodeScalars.append(Unicode.Scalar(UInt16(value)) ?? " ") }
        return text + "\u{2028}\u{2029}/\\\"e\u{301}🙂"
    }()

    private func assertSameAsJSONEncoder<Value: Encodable>(_ value: Value, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try JSONOutput.string(value), try JSONOutput.foundationString(value), file: file, line: line)
    }

    func testTheTextIsJSONEncodersByteForByte() throws {
        let one = Sample(text: Self.awkward, number: nil, list: [], date: Date(timeIntervalSince1970: 1_732_400_000), counter: 5,
                         real: 0.1, table: [:], flag: true, when: nil)
        let two = Sample(text: "a/b", number: -3, list: ["a", Self.awkward], date: Date(timeIntervalSince1970: 1_732_400_000.5),
                         counter: nil, real: 1e300, table: ["b": [1], "a": [], "é": [2], "Z": [3], Self.awkward: []],
                         flag: false, when: Date(timeIntervalSince1970: 3))
        let account = AccountSummary(Account(id: UUID(), issuer: Self.awkward, name: "n", otp: OTPParameters(kind: .hotp, counter: 7),
                                             tags: ["t", "u"], createdAt: Date(), updatedAt: Date()))
        try assertSameAsJSONEncoder([one, two])
        try assertSameAsJSONEncoder([Sample]())
        try assertSameAsJSONEncoder(one)
        try assertSameAsJSONEncoder(Nest(samples: [one, two], account: account, grid: [[], [1, 2], []]))
        try assertSameAsJSONEncoder(Nest(samples: [], account: nil, grid: []))
        try assertSameAsJSONEncoder([Wrapper(sample: two)])
        try assertSameAsJSONEncoder(Repeating())
        try assertSameAsJSONEncoder([Empty()])
        try assertSameAsJSONEncoder(Empty())
        try assertSameAsJSONEncoder("a/b")
        try assertSameAsJSONEncoder(5)
        try assertSameAsJSONEncoder(["b": 1, "a": 2])
        try assertSameAsJSONEncoder([1, nil, 3] as [Int?])
        try assertSameAsJSONEncoder([Int8(-1), Int8(2)])
    }

    func testAnEmptyArrayIsTwoBrackets() throws {
        XCTAssertEqual(try JSONOutput.string([String]()), "[]")
        XCTAssertEqual(try JSONOutput.string(["a": [String]()]), "{\n  \"a\" : []\n}")
    }

    func testWhatOnlyJSONEncoderDoesIsLeftToIt() throws {
        XCTAssertNil(try JSONTextWriter.text(["a": Data([1, 2])]))
        XCTAssertNil(try JSONTextWriter.text([Float(1.5)]))
        XCTAssertNil(try JSONTextWriter.text([URL(fileURLWithPath: "/tmp")]))
        try assertSameAsJSONEncoder(["a": Data([1, 2])])
        try assertSameAsJSONEncoder([Float(1.5)])
        XCTAssertThrowsError(try JSONOutput.string([Double.infinity]))
    }
}
