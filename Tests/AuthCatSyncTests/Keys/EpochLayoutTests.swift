import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatSync

final class EpochLayoutTests: XCTestCase {
    let vault = String(repeating: "0123456789abcdef", count: 2)
    let device = "0123456789abcdef"

    func testEpochNamesParseBackAndOlderReadersIgnoreThem() {
        let batch = EpochLayout.inEpoch(3, .batch(vault: vault, device: device, sequence: 5))
        XCTAssertEqual(batch, "authcat-\(vault)/e-0000000003/\(device)/b-0000000005")
        let marker = EpochLayout.inEpoch(3, .disabledMarker(vault: vault, generation: 2))
        XCTAssertEqual(marker, "authcat-\(vault)/e-0000000003/disabled-0000000002")
        let key = EpochLayout.deviceKey(vault, device: device)
        let rotation = EpochLayout.rotation(vault, epoch: 3, storedBytes: Data("r".utf8))
        XCTAssertEqual(
            EpochLayout.parse(batch),
            .epochObject(vault: vault, epoch: 3, inner: .batch(vault: vault, device: device, sequence: 5)))
        XCTAssertEqual(EpochLayout.parse(key), .deviceKey(vault: vault, device: device))
        XCTAssertEqual(
            EpochLayout.parse(rotation),
            .rotation(vault: vault, epoch: 3, digest: EpochLayout.digest(of: Data("r".utf8))))
        for name in [batch, marker, key, rotation] {
            XCTAssertNil(RemoteLayout.parse(name), name)
        }
        // Epoch 0 keeps the names of §5.1.
        XCTAssertEqual(
            EpochLayout.inEpoch(0, .batch(vault: vault, device: device, sequence: 5)),
            RemoteLayout.batch(vault, device: device, sequence: 5))
    }

    func testOnlyWellFormedEpochNamesCount() {
        for name in [
            "authcat-\(vault)/e-3/\(device)/b-0000000005", "authcat-\(vault)/e-0000000000/\(device)/b-0000000005",
            "authcat-\(vault)/e-0000000003/manifest", "authcat-\(vault)/rotation-0000000003",
            "authcat-\(vault)/rotation-0000000003-XYZ", "authcat-\(vault)/key-short",
            "authcat-\(vault)/rotation-00000000003-0123456789abcdef",
        ] {
            XCTAssertNil(EpochLayout.parse(name), name)
        }
    }

    func testTheNewestListedEpochComesFromRotationsAndEpochFolders() {
        XCTAssertEqual(EpochLayout.newestListedEpoch([RemoteLayout.manifest(vault)], vault: vault), 0)
        XCTAssertEqual(
            EpochLayout.newestListedEpoch(
                [
                    EpochLayout.rotation(vault, epoch: 2, storedBytes: Data()),
                    EpochLayout.inEpoch(4, .snapshot(vault: vault, device: device, sequence: 1)),
                    EpochLayout.rotation(String(repeating: "f", count: 32), epoch: 9, storedBytes: Data()),
                ], vault: vault), 4)
    }
}
