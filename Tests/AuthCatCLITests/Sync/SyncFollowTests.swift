import AuthCatTestSupport
import Foundation
import XCTest

/// Two devices, synced, that follow the same file (a phone's backup that a
/// folder sync brings to both): followed accounts sync like any other, and
/// the second device applies the same changes without making duplicates.
final class SyncFollowTests: SyncTestCase {
    private var phoneFile: URL { scratch.appendingPathComponent("phone-export.txt") }

    /// Writes the file as the phone would, dated a while ago so that follow need not wait for it to settle.
    private func writePhoneFile(_ accounts: [(label: String, secret: String)]) throws {
        try write(accounts.map { "otpauth://totp/\($0.label)?secret=\($0.secret)\n" }.joined(), to: phoneFile)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-10)], ofItemAtPath: phoneFile.path)
    }

    private func ids(_ device: AuthCatRunner) throws -> [String: String] {
        let output = try succeed(device, ["list", "--json"])
        let accounts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: accounts.map {
                ("\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")", $0["id"] as? String ?? "")
            })
    }

    func testTwoDevicesFollowingOneFileMakeNoDuplicates() throws {
        let (laptop, desk) = (try makeDevice(), try makeDevice())
        try add(laptop, "mine", issuer: "Laptop", secret: "MFRGGZDFMZTWQ2LK")
        try enable(laptop, ["--device-name", "laptop"])
        try enable(desk, ["--device-name", "desk"])
        let first = [
            ("GitHub:alice", SyncTestCase.secret), ("Mail:bob", "JBSWY3DPEHPK3PXP"), ("Old:carl", "KRSXG5BAMFRGGZDF"),
        ]
        try writePhoneFile(first)

        try succeed(laptop, ["follow", "add", phoneFile.path, "--name", "phone"])
        try succeed(laptop, ["sync", "now"])
        try succeed(desk, ["sync", "now"])
        let added = try succeed(desk, ["follow", "add", phoneFile.path, "--name", "phone", "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(added.utf8)) as? [String: Any])
        XCTAssertEqual(report["added"] as? [String], [], added)
        XCTAssertEqual((report["adopted"] as? [String])?.sorted(), ["GitHub:alice", "Mail:bob", "Old:carl"])
        XCTAssertEqual(try ids(desk), try ids(laptop))

        // The phone renames one, drops one and adds one; the laptop applies it first and syncs.
        try writePhoneFile([
            ("GitHub:alice-work", SyncTestCase.secret), ("Mail:bob", "JBSWY3DPEHPK3PXP"),
            ("New:dora", "ORSXG5DJNZTSA2LB"),
        ])
        try succeed(laptop, ["follow", "now"])
        try succeed(laptop, ["sync", "now"])
        try succeed(desk, ["sync", "now"])
        let output = try succeed(desk, ["follow", "now", "--json"])
        let looks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(looks.first?["added"] as? [String], [], output)
        XCTAssertEqual(looks.first?["adopted"] as? [String], ["New:dora"], output)
        let expected = ["GitHub:alice-work", "Laptop:mine", "Mail:bob", "New:dora"]
        XCTAssertEqual(try labels(desk), expected)
        try succeed(desk, ["sync", "now"])
        try succeed(laptop, ["sync", "now"])
        XCTAssertEqual(try labels(laptop), expected)
        XCTAssertEqual(try ids(desk), try ids(laptop), "the same accounts, not copies")

        // From then on the desk follows the file on its own too.
        try writePhoneFile([("GitHub:alice-work", SyncTestCase.secret), ("Mail:bob", "JBSWY3DPEHPK3PXP")])
        try succeed(desk, ["follow", "now"])
        XCTAssertEqual(try labels(desk), ["GitHub:alice-work", "Laptop:mine", "Mail:bob"])
    }
}
