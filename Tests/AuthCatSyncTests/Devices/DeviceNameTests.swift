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
        XCTAssertEqual(DeviceName.sanitized("vm\n\u{1B}[2J"), "vm??[2J")
        XCTAssertEqual(DeviceName.sanitized("  host  "), "host")
        XCTAssertEqual(DeviceName.sanitized(""), "device")
        XCTAssertEqual(DeviceName.sanitized(String(repeating: "x", count: 300)).count, 64)
        XCTAssertEqual(DeviceName.sanitized("3d7352bf6db19a6e"), "device-3d7352bf6db19a6e")
        XCTAssertNil(DeviceName.problem(with: DeviceName.sanitized("a\u{0}b\u{202E}")))
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
