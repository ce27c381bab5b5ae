import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

final class EpochCutTests: XCTestCase {
    let a = "aaaaaaaaaaaaaaaa"
    let b = "bbbbbbbbbbbbbbbb"
    let c = "cccccccccccccccc"

    /// After the rotation, the old key still opens what the thief writes with
    /// it; the cut points decide. B's writing counts up to its cut, C's (the
    /// revoked device) up to the last batch the rotation saw, and exactly that
    /// batch: a replaced batch at the cut, anything after it, anything from a
    /// device the rotation does not name and every old-epoch marker are refused.
    func testOldEpochObjectsCountOnlyUpToTheCutPointsSignedInTheRotation() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(
            by: a, revoking: [c],
            cuts: [
                RotationRecord.Cut(device: a, sequence: 0, chainHash: ""),
                RotationRecord.Cut(device: b, sequence: 12, chainHash: "b12"),
                RotationRecord.Cut(device: c, sequence: 7, chainHash: "c7"),
            ])
        let cut = EpochCut(record: prepared.record)
        XCTAssertTrue(cut.accepts(device: b, sequence: 11, chainHash: "anything"))
        XCTAssertTrue(cut.accepts(device: b, sequence: 12, chainHash: "b12"))
        XCTAssertFalse(cut.accepts(device: b, sequence: 12, chainHash: "forged"))
        XCTAssertFalse(cut.accepts(device: b, sequence: 13, chainHash: "b13"))
        XCTAssertTrue(cut.accepts(device: c, sequence: 7, chainHash: "c7"))
        XCTAssertFalse(cut.accepts(device: c, sequence: 8, chainHash: "the thief keeps writing"))
        XCTAssertFalse(cut.accepts(device: a, sequence: 1, chainHash: ""))
        XCTAssertFalse(cut.accepts(device: "dddddddddddddddd", sequence: 1, chainHash: ""))
        XCTAssertFalse(cut.acceptsMarker())
    }

    /// The cut points are part of what the authority signed: a remote that
    /// moves a cut forward (to slip the thief's later batches in) breaks the signature.
    func testACutMovedByTheRemoteBreaksTheRecord() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(
            by: a, revoking: [c], cuts: [RotationRecord.Cut(device: c, sequence: 7, chainHash: "c7")])
        var moved = prepared.record
        moved.cuts = [RotationRecord.Cut(device: c, sequence: 99, chainHash: "c99")]
        let bytes = try moved.encoded()
        fixture.remote.removeObject(prepared.recordName)
        fixture.remote.replaceObject(EpochLayout.rotation(fixture.vaultID, epoch: 1, storedBytes: bytes), with: bytes)
        let result = try await fixture.follow(b)
        XCTAssertNotNil(result.outcome.withheld)
        XCTAssertEqual(result.rejected.count, 1)
    }

    /// What the thief writes under the new epoch's names, it must seal with a
    /// key it does not have: the new object key differs from the old one.
    func testTheNewEpochsObjectKeyIsNotTheOldOne() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(by: a, revoking: [c])
        let name = EpochLayout.inEpoch(1, .batch(vault: fixture.vaultID, device: c, sequence: 1))
        let forged = try SealedObject.seal(
            Data("{}".utf8), key: fixture.keys.objectKey, vault: fixture.vaultID, device: c, name: name)
        XCTAssertThrowsError(
            try SealedObject.open(
                forged, key: prepared.keys.objectKey, vault: fixture.vaultID, device: c, name: name))
    }
}
