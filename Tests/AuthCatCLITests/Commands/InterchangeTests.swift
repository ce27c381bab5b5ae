import Foundation
import XCTest

/// Base of the import, export and backup command tests: fixture files of
/// other apps (kept with the AuthCatInterchange tests) and scratch files.
class InterchangeTests: AuthCatTestCase {
    /// Tests/AuthCatInterchangeTests/Fixtures, found from this source file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("AuthCatInterchangeTests/Fixtures")

    func fixture(_ name: String) -> String {
        Self.fixtures.appendingPathComponent(name).path
    }

    /// A file in the test's folder; returns its path.
    func scratch(_ name: String, _ content: Data) throws -> String {
        let url = authcat.root.appendingPathComponent(name)
        try content.write(to: url)
        return url.path
    }

    func scratch(_ name: String, _ text: String) throws -> String {
        try scratch(name, Data(text.utf8))
    }

    /// A second vault folder, for round trips.
    func otherHome(_ name: String = "other") -> String {
        authcat.root.appendingPathComponent(name).path
    }

    /// `list --json` of the vault at `home`, without ids and times, which differ between vaults.
    func accountsWithoutIDs(home: String) throws -> [[String: String]] {
        let result = try authcat.run(["--home", home, "list", "--json"], withHome: false)
        if result.status == 1, result.stderr.contains(#""message":"no accounts in "#) { return [] }
        XCTAssertEqual(result.status, 0, result.stderr)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return list.map { account in
            account.filter { !["id", "created", "updated", "createdAt", "updatedAt"].contains($0.key) }.mapValues {
                "\($0)"
            }
        }
    }

    /// Every account's otpauth URI (secrets included) in the vault at `home`, sorted.
    func uris(home: String) throws -> [String] {
        let labels = try accountsWithoutIDs(home: home).map { account -> String in
            let issuer = account["issuer"] ?? ""
            return issuer.isEmpty ? account["name"] ?? "" : "\(issuer):\(account["name"] ?? "")"
        }
        return try labels.map { label in
            let result = try authcat.run(["--home", home, "show", label, "--uri"], withHome: false)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }.sorted()
    }

    /// The first history transaction's author, newest first.
    func latestHistoryAuthor() throws -> String? {
        let history = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(["history", "--json"]).utf8)) as? [[String: Any]])
        return history.first?["author"] as? String
    }
}
