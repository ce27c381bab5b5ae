import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatSync

final class RemoteLayoutTests: XCTestCase {
    let vault = String(repeating: "ab", count: 16)
    let device = "0123456789abcdef"

    func testNamesParseBackToWhatTheyMean() throws {
        let names: [RemoteLayout.Name] = [
            .manifest(vault: vault), .disabledMarker(vault: vault, generation: 3), .deletedMarker(vault: vault),
            .batch(vault: vault, device: device, sequence: 1),
            .snapshot(vault: vault, device: device, sequence: 9_999_999_999),
        ]
        for name in names {
            let text = RemoteLayout.name(name)
            XCTAssertNoThrow(try RemoteObjectName.validate(text), text)
            XCTAssertEqual(RemoteLayout.parse(text), name, text)
        }
        XCTAssertEqual(
            RemoteLayout.batch(vault, device: device, sequence: 42), "authcat-\(vault)/\(device)/b-0000000042")
        XCTAssertEqual(RemoteLayout.disabledMarker(vault, generation: 2), "authcat-\(vault)/disabled-0000000002")
    }

    func testTheMarkerNameOfEarlierVersionsIsGenerationOne() {
        XCTAssertEqual(RemoteLayout.parse("authcat-\(vault)/disabled"), .disabledMarker(vault: vault, generation: 1))
        let listing = RemoteListing([
            RemoteObject(name: RemoteLayout.legacyDisabledMarker(vault), size: 512),
            RemoteObject(name: RemoteLayout.disabledMarker(vault, generation: 2), size: 512),
        ])
        XCTAssertEqual(listing.newestDisabledMarker(of: vault)?.generation, 2)
        XCTAssertEqual(listing.newestDisabledMarker(of: vault)?.name, "authcat-\(vault)/disabled-0000000002")
        XCTAssertEqual(listing.disabledMarkers[vault]?[1], "authcat-\(vault)/disabled")
    }

    func testForeignNamesAreIgnored() {
        for text in [
            "manifest", "authcat-xyz/manifest", "authcat-\(vault)/other", "authcat-\(vault)/\(device)/b-1",
            "authcat-\(vault)/\(device)/x-0000000001", "authcat-\(vault)/\(device)/b-0000000000", "notes.txt",
            "authcat-\(vault)/disabled-0000000000", "authcat-\(vault)/disabled-12", "authcat-\(vault)/disabled-",
        ] {
            XCTAssertNil(RemoteLayout.parse(text), text)
        }
    }

    func testNewIdsHaveTheirLengthAndDiffer() throws {
        let first = try RemoteLayout.newVaultID()
        XCTAssertTrue(RemoteLayout.isVaultID(first))
        XCTAssertNotEqual(first, try RemoteLayout.newVaultID())
        XCTAssertTrue(RemoteLayout.isDeviceID(try RemoteLayout.newDeviceID()))
    }

    func testAListingIsSortedByMeaning() {
        let other = String(repeating: "cd", count: 16)
        let listing = RemoteListing([
            RemoteObject(name: RemoteLayout.manifest(vault), size: 300),
            RemoteObject(name: RemoteLayout.batch(vault, device: device, sequence: 1), size: 512),
            RemoteObject(name: RemoteLayout.batch(vault, device: device, sequence: 2), size: 512),
            RemoteObject(name: RemoteLayout.snapshot(vault, device: device, sequence: 2), size: 1024),
            RemoteObject(name: RemoteLayout.deletedMarker(other), size: 512),
            RemoteObject(name: "stray.txt", size: 5),
        ])
        XCTAssertEqual(listing.manifests, [vault])
        XCTAssertEqual(listing.deletedMarkers, [other])
        XCTAssertEqual(listing.devices[vault]?[device]?.newest, 2)
        XCTAssertTrue(listing.hasObjects(of: vault))
        XCTAssertFalse(listing.hasObjects(of: other))
    }

    func testNumbersAreExactlyTenDigitsAndNothingPastTheWidthIsNamed() {
        XCTAssertEqual(
            RemoteLayout.parse("authcat-\(vault)/disabled-9999999999"),
            .disabledMarker(vault: vault, generation: 9_999_999_999))
        for text in [
            "authcat-\(vault)/disabled-10000000000", "authcat-\(vault)/\(device)/b-10000000000",
            "authcat-\(vault)/\(device)/b-000000001", "authcat-\(vault)/\(device)/b-+000000001",
            "authcat-\(vault)/\(device)/b-00000000\u{0661}1", "authcat-\(vault)/\(device)/b- 000000001",
        ] {
            XCTAssertNil(RemoteLayout.parse(text), text)
        }
        XCTAssertEqual(try RemoteLayout.checkedNumber(RemoteLayout.maximumNumber), 9_999_999_999)
        XCTAssertThrowsError(try RemoteLayout.checkedNumber(RemoteLayout.maximumNumber + 1)) { error in
            XCTAssertTrue("\(error)".contains("does not fit"), "\(error)")
        }
        XCTAssertThrowsError(try RemoteLayout.checkedNumber(0))
    }
}
