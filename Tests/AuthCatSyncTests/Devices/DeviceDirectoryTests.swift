import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatSync

final class DeviceDirectoryTests: XCTestCase {
    typealias Device = DeviceDirectory.Device

    let laptop = Device(id: "3d7352bf6db19a6e", name: "laptop", isThisDevice: true)
    let vm = Device(id: "ab12cd34ef567890", name: "vm")
    let vm2 = Device(id: "ab12ff0011223344", name: "vm-2", isRevoked: true)
    /// A device whose name is a prefix of another's id: the name wins.
    let beef = Device(id: "0000000000000001", name: "beef")
    let beefID = Device(id: "beef000000000002", name: "cow")

    var directory: DeviceDirectory { DeviceDirectory(devices: [vm2, beefID, laptop, vm, beef]) }

    func testListsDevicesByNameThenID() {
        XCTAssertEqual(directory.devices.map(\.name), ["beef", "cow", "laptop", "vm", "vm-2"])
        XCTAssertEqual(directory.thisDevice, laptop)
    }

    func testADeviceWithNoNameYetIsListedLastAndNamedByItsID() throws {
        let silent = Device(id: "5170000000000000", name: nil)
        let directory = DeviceDirectory(devices: [silent, vm, laptop])
        XCTAssertEqual(directory.devices.map(\.name), ["laptop", "vm", nil])
        XCTAssertEqual(silent.label, "(no name yet) (5170000000000000)")
        XCTAssertEqual(try directory.resolve("5170"), silent)
        XCTAssertThrowsError(try directory.resolve("(no name yet)"), "the placeholder is not a name")
    }

    func testTheWholeIDNamesItsDeviceInAnyCase() throws {
        XCTAssertEqual(try directory.resolve("ab12cd34ef567890"), vm)
        XCTAssertEqual(try directory.resolve("AB12FF0011223344"), vm2)
    }

    func testTheNameNamesItsDevice() throws {
        XCTAssertEqual(try directory.resolve("vm"), vm)
        XCTAssertEqual(try directory.resolve("vm-2"), vm2)
        XCTAssertEqual(try directory.resolve("laptop"), laptop)
    }

    func testAUniquePrefixOfFourDigitsOrMoreNamesItsDevice() throws {
        XCTAssertEqual(try directory.resolve("3d73"), laptop)
        XCTAssertEqual(try directory.resolve("ab12c"), vm)
        XCTAssertEqual(try directory.resolve("AB12F"), vm2)
    }

    func testAnExactNameWinsOverAnIDPrefix() throws {
        XCTAssertEqual(try directory.resolve("beef"), beef)
        XCTAssertEqual(try directory.resolve("beef0"), beefID)
    }

    func testAPrefixSharedByTwoIDsIsAmbiguousAndListsThem() {
        XCTAssertThrowsError(try directory.resolve("ab12")) { error in
            XCTAssertEqual(error as? DeviceDirectory.NamingError, .ambiguous("ab12", candidates: [vm, vm2]))
            XCTAssertEqual(
                "\(error)",
                "'ab12' names 2 devices: vm (ab12cd34ef567890), vm-2 (ab12ff0011223344); give the whole id")
        }
    }

    func testTwoDevicesThatTookOneNameAtOnceAreAmbiguousByThatName() {
        let twin = Device(id: "ffffffffffffffff", name: "vm")
        let directory = DeviceDirectory(devices: [vm, twin, laptop])
        XCTAssertThrowsError(try directory.resolve("vm")) { error in
            XCTAssertEqual(error as? DeviceDirectory.NamingError, .ambiguous("vm", candidates: [vm, twin]))
        }
        XCTAssertEqual(try directory.resolve("ffff"), twin)
    }

    func testAWordThatNamesNoDeviceListsEveryDevice() {
        for word in ["phone", "ab13", "", "3d7352bf6db19a6e0", "Laptop"] {
            XCTAssertThrowsError(try directory.resolve(word), word) { error in
                XCTAssertEqual(
                    error as? DeviceDirectory.NamingError, .unknown(word, candidates: directory.devices), word)
                XCTAssertTrue("\(error)".hasPrefix("no device is named '\(word)'; the devices are beef ("), "\(error)")
            }
        }
    }

    func testAPrefixShorterThanFourDigitsIsRefusedEvenWhenUnique() {
        XCTAssertThrowsError(try directory.resolve("3d7")) { error in
            XCTAssertEqual(error as? DeviceDirectory.NamingError, .prefixTooShort("3d7", candidates: [laptop]))
            XCTAssertTrue("\(error)".contains("at least 4 digits"), "\(error)")
        }
    }

    func testACandidateListStaysOneLineWithManyDevices() {
        let many = (0..<25).map { Device(id: String(format: "%016x", $0), name: "d\($0)") }
        XCTAssertThrowsError(try DeviceDirectory(devices: many).resolve("nope")) { error in
            XCTAssertTrue("\(error)".hasSuffix(" and 15 more"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testAnEmptyDirectorySaysNoDeviceIsKnown() {
        XCTAssertThrowsError(try DeviceDirectory(devices: []).resolve("vm")) { error in
            XCTAssertEqual("\(error)", "no device is named 'vm'; no device is known yet")
        }
    }

    func testOtherDeviceNamedIgnoresThisDevice() {
        XCTAssertEqual(directory.otherDevice(named: "vm"), vm)
        XCTAssertNil(directory.otherDevice(named: "laptop"))
    }

    func testDecodesDevicesWrittenBeforeFirstSeenAndRevocation() throws {
        let old = Data(#"{"id":"ab12cd34ef567890","name":"vm","isThisDevice":false}"#.utf8)
        XCTAssertEqual(try JSONDecoder().decode(Device.self, from: old), vm)
    }
}
