import AuthCatSync
import XCTest

final class RemoteObjectNameTests: XCTestCase {
    func testAcceptsTheSyncEngineNames() throws {
        for name in ["manifest", "devices/0f3a9c/batch-000001", "snapshots/2024-01-01_x.bin", "A-Z_a.z-0.9"] {
            XCTAssertNoThrow(try RemoteObjectName.validate(name), name)
            XCTAssertTrue(RemoteObjectName.isValid(name), name)
        }
        XCTAssertNoThrow(try RemoteObjectName.validate(String(repeating: "a", count: 512)))
    }

    func testRejectsUnsafeNamesWithAReason() async throws {
        for name in RemoteConformance.invalidNames {
            XCTAssertFalse(RemoteObjectName.isValid(name), name)
            await assertRemoteError(.invalidObjectName, name) { try RemoteObjectName.validate(name) }
        }
        let error = await assertRemoteError(.invalidObjectName) { try RemoteObjectName.validate("../x") }
        XCTAssertEqual(error?.description, #"invalid remote object name "../x": the name contains '..'"#)
    }

    func testPrefixesMayBeEmptyOrEndInSlash() throws {
        for prefix in ["", "devices/", "devices/a1/batch-", "dev", "manifest"] {
            XCTAssertNoThrow(try RemoteObjectName.validatePrefix(prefix), prefix)
        }
        for prefix in ["/", "devices//", "../", "a/../", ".x/", "devices/ a"] {
            XCTAssertThrowsError(try RemoteObjectName.validatePrefix(prefix), prefix)
        }
    }
}
