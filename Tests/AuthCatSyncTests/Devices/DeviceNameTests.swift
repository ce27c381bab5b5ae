import XCTest

@testable import AuthCatSync

final class DeviceNameTests: XCTestCase {
    func testAcceptsOrdinaryNames() throws {
        for name in ["vm", "laptop-2", "Anna's MacBook", "büro", "测试机", String(repeating: "é", count: 64)] {
            XCTAssertEqual(try DeviceName.validated(name), name)
        }
    }

    func testRefusesEmptyLongControlAndIDLikeNames() {
        let cases: [(String, String)] = [
            ("", "cannot be empty"),
            (String(repeating: "a", count: 65), "at most 64 characters"),
            ("vm\nroot", "control characters"),
            ("vm\u{1B}[31m", "control characters"),
            ("tab\there", "control characters"),
            ("evil\u{202E}txt", "control characters"),
            (" vm", "start or end with a space"),
            ("vm ", "start or end with a space"),
            ("3d7352bf6db19a6e", "look like a device id"),
            ("3D7352BF6DB19A6E", "look like a device id"),
        ]
        for (name, problem) in cases {
            XCTAssertThrowsError(try DeviceName.validated(name), name.debugDescription) { error in
                guard case .invalidName(let message) = error as? DeviceDirectory.NamingError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message.contains(problem), message)
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testSanitizesWhatAnotherDeviceOrTheHostSays() {
        XCTAssertEqual(DeviceName.sanitized("vm\n\u{1B}[2J"), "vm<U+000A><U+001B>[2J")
        XCTAssertEqual(DeviceName.sanitized("laptop\u{3164}"), "laptop<U+3164>")
        XCTAssertEqual(DeviceName.sanitized("two   words"), "two words")
        XCTAssertEqual(DeviceName.sanitized("  host  "), "host")
        XCTAssertEqual(DeviceName.sanitized(""), "device")
        XCTAssertEqual(DeviceName.sanitized(String(repeating: "x", count: 300)).count, 64)
        XCTAssertEqual(DeviceName.sanitized("3d7352bf6db19a6e"), "device-3d7352bf6db19a6e")
        XCTAssertNil(DeviceName.problem(with: DeviceName.sanitized("a\u{0}b\u{202E}")))
    }

    /// Issue 32: a name that holds anything that does not show is refused,
    /// by category (these are not the examples the rules were written from).
    func testRefusesInvisibleAndBlankLookingCharactersByCategory() {
        let cases: [(String, String)] = [
            ("laptop\u{3164}", "invisible or blank-looking"),  // Hangul filler (default ignorable)
            ("laptop\u{1160}", "invisible or blank-looking"),  // Hangul jungseong filler
            ("laptop\u{2800}", "invisible or blank-looking"),  // braille blank (a symbol that draws nothing)
            ("lap\u{034F}top", "invisible or blank-looking"),  // combining grapheme joiner
            ("laptop\u{FE0E}", "invisible or blank-looking"),  // variation selector
            ("laptop\u{E0101}", "invisible or blank-looking"),  // variation selector supplement
            ("lap\u{17B4}top", "invisible or blank-looking"),  // Khmer inherent vowel
            ("two\u{00A0}words", "invisible or blank-looking"),  // no-break space
            ("two\u{2007}words", "invisible or blank-looking"),  // figure space
            ("two\u{3000}words", "invisible or blank-looking"),  // ideographic space
            ("lap\u{200B}top", "control characters"),  // zero-width space (format)
            ("lap\u{2066}top", "control characters"),  // bidi isolate
            ("lap\u{00AD}top", "control characters"),  // soft hyphen
            ("tag\u{E0041}", "control characters"),  // tag character
            ("lap\u{0085}top", "control characters"),  // next line
            ("lap\u{2028}top", "control characters"),  // line separator
            ("lap\u{E000}top", "private-use, unassigned"),
            ("lap\u{10FFFD}top", "private-use, unassigned"),
            ("lap\u{0378}top", "private-use, unassigned"),  // unassigned
            ("lap\(Character(Unicode.Scalar(0xFDD0)!))top", "private-use, unassigned"),  // noncharacter
            ("two  words", "one space"),
            ("\u{0301}accent", "combining mark"),
            ("a \u{0301}b", "combining mark"),
            ("e\u{0301}\u{0302}\u{0303}\u{0304}", "combining mark"),
        ]
        for (name, problem) in cases {
            XCTAssertThrowsError(try DeviceName.validated(name), name.debugDescription) { error in
                guard case .invalidName(let message) = error as? DeviceDirectory.NamingError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message.contains(problem), "\(name.debugDescription): \(message)")
                XCTAssertFalse(message.contains("\n"))
            }
            // What another device sends is shown with each such character written out.
            XCTAssertNil(DeviceName.problem(with: DeviceName.sanitized(name)), name.debugDescription)
        }
        for name in ["Anna's MacBook", "Tiếng Việt", "e\u{0301}", "クラウド", "pc-01", "a b c"] {
            XCTAssertNil(DeviceName.problem(with: name), name)
            XCTAssertEqual(DeviceName.escaped(name), name)
        }
    }

    func testNamesThatLookAlikeShareASkeleton() {
        let alike: [(String, String)] = [
            ("laptop", "LAPTOP"),  // case
            ("laptop", "ｌａｐｔｏｐ"),  // width
            ("laptop", "𝐥𝐚𝐩𝐭𝐨𝐩"),  // compatibility (mathematical bold)
            ("büro", "buro"),  // diacritics
            ("laptop", "l\u{0430}pt\u{043E}p"),  // Cyrillic a and o
            ("PAYPAL", "\u{0420}\u{0410}\u{03A5}\u{0420}\u{0391}L"),  // Cyrillic and Greek capitals
            ("laptop", "Iaptop"),  // capital i for small L
            ("laptop", "1aptop"),  // one for small L
            ("vm0", "vmo"),  // zero for o
            ("office pc", "office\u{00A0}pc"),  // another space
            ("laptop", "laptop\u{3164}"),  // a filler dropped
        ]
        for (name, other) in alike {
            XCTAssertTrue(DeviceName.isConfusable(name, with: other), "\(name) \(other.debugDescription)")
        }
        for (name, other) in [("laptop", "desktop"), ("vm", "vm-2"), ("laptop", "laptops"), ("bob", "вов")] {
            XCTAssertFalse(DeviceName.isConfusable(name, with: other), "\(name) \(other)")
        }
    }

    func testUniqueAvoidsNamesThatLookAlike() {
        XCTAssertEqual(DeviceName.unique("l\u{0430}ptop", avoiding: ["laptop"]), "l\u{0430}ptop-2")
        XCTAssertEqual(DeviceName.unique("VM", avoiding: ["vm", "vm-2"]), "VM-3")
    }

    func testUniqueAddsTheFirstFreeNumber() {
        XCTAssertEqual(DeviceName.unique("vm", avoiding: []), "vm")
        XCTAssertEqual(DeviceName.unique("vm", avoiding: ["vm"]), "vm-2")
        XCTAssertEqual(DeviceName.unique("vm", avoiding: ["vm", "vm-2", "vm-3"]), "vm-4")
        let long = String(repeating: "n", count: 64)
        let unique = DeviceName.unique(long, avoiding: [long])
        XCTAssertEqual(unique.count, 64)
        XCTAssertTrue(unique.hasSuffix("-2"))
    }
}
