import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// A server that pages without end cannot make a listing grow without end:
/// the listing stops at `RemoteObject.maximumListed` entries, the folder
/// remote's bound too.
final class S3ListingBoundTests: XCTestCase {
    func testAListingThatNeverEndsFailsPastTheBoundEveryRemoteKeeps() async throws {
        let server = try HostileS3Server()
        defer { server.stop() }
        guard case .s3(let configuration) = try RemoteLocation(parsing: server.location(prefix: "v")) else {
            return XCTFail("not an s3 location")
        }
        let remote = S3Remote(
            configuration: configuration,
            credentials: S3Credentials(accessKeyId: "AKIAHOSTILE000000000", secretAccessKey: "ignored"))
        server.mode = .endlessListing(keys: S3ListPage.maximumKeys)
        do {
            let listed = try await remote.list(prefix: "")
            XCTFail("listed \(listed.count) objects")
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, .protocolError)
            XCTAssertTrue(error.description.contains("more than 100000 objects"), error.description)
        }
        try await remote.close()
        XCTAssertEqual(FolderRemote.maximumListedEntries, RemoteObject.maximumListed)
        XCTAssertEqual(
            server.listRequests, RemoteObject.maximumListed / S3ListPage.maximumKeys + 1, "stopped at the bound")
    }
}
