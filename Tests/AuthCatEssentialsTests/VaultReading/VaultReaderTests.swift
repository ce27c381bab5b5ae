import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import GRDBSQLite
import XCTest

/// The one reader of both programs, on a vault the core wrote, through a
/// read-only connection of its own as the quick front opens one.
final class VaultReaderTests: XCTestCase {
    private var folder: URL!
    private var vault: Vault!
    private var connection: OpaquePointer?

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url("vault")
        vault = try Vault.openOrCreate(at: VaultLocation(folder: folder), deviceName: "test", clock: ManualClock())
    }

    override func tearDown() {
        sqlite3_close(connection)
        vault = nil
    }

    private func reader() throws -> VaultReader {
        if connection == nil {
            let path = VaultLocation(folder: folder).databaseURL.path
            XCTAssertEqual(sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil), SQLITE_OK)
        }
        return VaultReader(connection: try XCTUnwrap(connection))
    }

    @discardableResult
    private func add(
        _ issuer: String, _ name: String, otp: OTPParameters = OTPParameters(), tags: [String] = [],
        note: String = "", pin: String? = nil
    ) throws -> Account {
        let secret =
            otp.kind == .motp ? try Base16.decode("e3152afee62599c8") : SecretBytes(Array("12345678901234567890".utf8))
        let draft = AccountDraft(
            issuer: issuer, name: name, otp: otp, tags: tags, note: note, secret: secret,
            pin: pin.map { SecretBytes(utf8: $0) })
        return try vault.write(author: .cli) { try $0.insert(draft) }
    }

    private func remove(_ account: Account) throws {
        try vault.write(author: .cli) { _ = try $0.delete(account.id) }
    }

    /// The quick front's reader leaves notes unread, and reads everything else alike.
    func testAReaderThatSkipsNotesReadsAllButTheNote() throws {
        let github = try add(
            "GitHub", "alice", otp: OTPParameters(kind: .totp, algorithm: .sha256, digits: 8, period: 60),
            tags: ["work"], note: String(repeating: "a long note; ", count: 1_000))
        _ = try reader()
        let skipping = VaultReader(connection: try XCTUnwrap(connection), readingNotes: false)
        var withoutNote = github
        withoutNote.note = ""
        XCTAssertEqual(try skipping.accounts(), [withoutNote])
        XCTAssertEqual(try skipping.account(matching: "GitHub:alice"), withoutNote, "by the label's index")
        XCTAssertEqual(try skipping.account(matching: "ali"), withoutNote, "by a part of the name")
        XCTAssertEqual(try skipping.account(id: github.id), withoutNote)
        XCTAssertEqual(try reader().account(matching: "ali").note, github.note, "the core's reader reads it")
    }

    func testAccountsReadAsTheyWereWrittenSortedForDisplay() throws {
        let github = try add(
            "GitHub", "alice", otp: OTPParameters(kind: .totp, algorithm: .sha256, digits: 8, period: 60),
            tags: ["work", "code"], note: "recovery codes in the safe")
        let counter = try add("", "ci", otp: OTPParameters(kind: .hotp, counter: 7))
        let gone = try add("Old", "gone")
        try remove(gone)
        let live = try reader().accounts()
        XCTAssertEqual(live, [counter, github], "sorted by issuer, then name")
        XCTAssertEqual(live[1].tags, ["code", "work"])
        XCTAssertEqual(live[1].note, "recovery codes in the safe")
        XCTAssertEqual(live[1].otp, OTPParameters(kind: .totp, algorithm: .sha256, digits: 8, period: 60))
        let all = try reader().accounts(includingDeleted: true)
        XCTAssertEqual(all.map(\.id), [counter.id, github.id, gone.id])
        XCTAssertNotNil(all[2].deletedAt)
        XCTAssertEqual(all, try vault.accounts(includingDeleted: true), "the core lists through the same reader")
        XCTAssertEqual(try reader().account(id: gone.id)?.deletedAt, all[2].deletedAt, "by id, deleted or not")
        XCTAssertNil(try reader().account(id: UUID()))
    }

    /// The light rows completion and the name rules read: the live accounts,
    /// the deleted ones, or both, with what whole accounts say of them.
    func testNamesAreReadForLiveOrDeletedAccountsOrBoth() throws {
        let github = try add("GitHub", "alice")
        let counter = try add("", "ci", otp: OTPParameters(kind: .hotp, counter: 7))
        let gone = try add("Old", "gone")
        try remove(gone)
        func names(live: Bool, deleted: Bool) throws -> Set<String> {
            Set(try reader().names(live: live, deleted: deleted).map { "\($0.id.vaultString) \($0.label)" })
        }
        let whole = try reader().accounts(includingDeleted: true)
        func expected(_ accounts: [Account]) -> Set<String> { Set(accounts.map { "\($0.id.vaultString) \($0.label)" }) }
        XCTAssertEqual(try names(live: true, deleted: false), expected([github, counter]))
        XCTAssertEqual(try names(live: false, deleted: true), expected(whole.filter { $0.deletedAt != nil }))
        XCTAssertEqual(try names(live: true, deleted: true), expected(whole))
        XCTAssertEqual(try names(live: false, deleted: false), [])
        XCTAssertEqual(
            Set(try vault.accountNames(live: false, deleted: true).map(\.label)), ["Old:gone"],
            "the core reads them through the same reader")
    }

    func testSealedSecretsAndPINsAreReadOnlyWhenAsked() throws {
        let totp = try add("GitHub", "alice")
        let motp = try add("PfSense", "jimmy", otp: OTPParameters(kind: .motp), pin: "1234")
        let plain = try XCTUnwrap(try reader().sealed(id: totp.id))
        XCTAssertGreaterThan(plain.secret.count, 20, "nonce, ciphertext and tag")
        XCTAssertNil(plain.pin)
        let pinned = try XCTUnwrap(try reader().sealed(id: motp.id))
        XCTAssertNotNil(pinned.pin)
        XCTAssertNotEqual(pinned.pin, pinned.secret)
        XCTAssertNil(try reader().sealed(id: UUID()))
    }

    /// The reader finds an id and an exact label through the vault's
    /// indexes and applies only the name rules to the rest; that must name
    /// exactly what all four rules of `AccountQuery` name among the live
    /// accounts in memory. So the exact pass over every account that the
    /// lookup once made after the indexed one could never find anything.
    func testALookupNamesWhatTheRuleNamesAmongTheLiveAccounts() throws {
        var accounts = [
            // (a, b:c) would share a:b:c's label, which the vault refuses; b:d does not.
            try add("a:b", "c"), try add("a", "b:d"), try add("", "x:y"), try add("", "y"), try add("GitHub", "alice"),
            try add("GitHub", "alice-work"), try add("Tiny", "bob"), try add("Tiny2", "bob"), try add("ΟΔΟΣ", "Σ"),
            try add("", "git"),
        ]
        let gone = try add("Old", "gone")
        try remove(gone)
        accounts.append(try add("Gone", "old"))
        let live = try vault.accounts()
        let queries = [
            "A:B:C", "a:b:D", "a:b", "x:Y", ":y", "y", "github:ALICE", "github", "git", "hub", "tiny", "tin", "bob",
            "οδος:σ", "ΟΔΟΣ", "σ", "Old:gone", "gone", gone.id.vaultString, accounts[4].id.vaultString.uppercased(),
            "nobody", "", ":", "é",
        ]
        for query in queries {
            let expected = AccountQuery(query).matches(in: live)
            do {
                let found = try reader().account(matching: query)
                XCTAssertEqual([found], expected, query)
            } catch let error as VaultError {
                switch error {
                case .notFound(let text):
                    XCTAssertEqual(text, query)
                    XCTAssertEqual(expected, [], query)
                case .ambiguous(let text, let candidates):
                    XCTAssertEqual(text, query)
                    XCTAssertEqual(candidates, expected.map(\.label), query)
                    XCTAssertGreaterThan(candidates.count, 1, query)
                default:
                    XCTFail("\(query): \(error)")
                }
            }
            XCTAssertEqual(
                Result { try vault.account(matching: query) }.error,
                Result { try reader().account(matching: query) }.error,
                "\(query): the core looks up through the same reader")
            XCTAssertEqual(
                try? vault.account(matching: query).id, try? reader().account(matching: query).id,
                "\(query): and finds the same account")
        }
        XCTAssertThrowsError(
            try reader().account(matching: gone.id.vaultString), "a deleted account's id names no live account")
        XCTAssertEqual(try reader().account(matching: ":y").label, "x:y", "`:y` is not y's label, but a part of x:y")
    }

    func testTheKeyCheckAcceptsOnlyThisVaultsKey() throws {
        let location = VaultLocation(folder: folder)
        let check = try XCTUnwrap(try reader().keyCheck())
        XCTAssertEqual(check.vaultID, vault.identity.vaultID)
        let key = try VaultKeyFile.read(from: location.keyFileURL).unlock { throw VaultError.passphraseRequired }
        XCTAssertTrue(check.accepts(key))
        XCTAssertFalse(check.accepts(try SecretBytes.random(count: AEAD.keySize)))
        XCTAssertFalse(
            VaultKeyCheck(vaultID: "another vault", sealed: check.sealed).accepts(key), "bound to the vault id")
        XCTAssertEqual(try reader().migrations(), VaultSchemaVersion.migrations)
    }

    /// The front reads a vault only when its migrations are exactly the list, in order.
    func testAVaultIsCurrentWithExactlyEveryMigration() throws {
        let names = VaultSchemaVersion.migrations
        XCTAssertEqual(names.count, VaultSchemaVersion.Migration.allCases.count)
        XCTAssertTrue(VaultSchemaVersion.isCurrent(try reader().migrations()))
        for other in [[], Array(names.dropLast()), names + ["v9-later"], names.reversed(), names.map { $0 + "x" }] {
            XCTAssertFalse(VaultSchemaVersion.isCurrent(other), "\(other)")
        }
    }

    func testSQLiteFailuresAreThrownWithTheirCode() throws {
        let path = folder.appendingPathComponent("not-a-vault.sqlite").path
        var other: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), SQLITE_OK)
        defer { sqlite3_close(other) }
        let empty = VaultReader(connection: try XCTUnwrap(other))
        XCTAssertThrowsError(try empty.accounts()) {
            XCTAssertEqual($0 as? VaultReadError, VaultReadError(resultCode: SQLITE_ERROR))
        }
        XCTAssertThrowsError(try empty.account(matching: "x")) { XCTAssertTrue($0 is VaultReadError) }
    }

    // MARK: The read-only connection of the quick front

    func testAReadOnlyConnectionReadsTheVaultAndWritesNothing() throws {
        let github = try add("GitHub", "alice")
        let connection = try VaultReader.ReadOnlyConnection(path: VaultLocation(folder: folder).databaseURL.path)
        XCTAssertEqual(try connection.snapshot { try connection.reader().accounts() }, [github])
        XCTAssertEqual(try connection.reader().migrations(), VaultSchemaVersion.migrations)
        XCTAssertThrowsError(try connection.snapshot { try connection.reader().account(matching: "nobody") }) {
            XCTAssertEqual($0 as? VaultError, .notFound("nobody"), "the body's error, as thrown")
        }
        // A body that threw leaves no transaction open: the next one begins.
        XCTAssertEqual(try connection.snapshot { try connection.reader().account(matching: "ali") }, github)
    }

    func testAReadOnlyConnectionOpensNoMissingFileAndFollowsNoLink() throws {
        let missing = folder.appendingPathComponent("missing.sqlite").path
        XCTAssertThrowsError(try VaultReader.ReadOnlyConnection(path: missing)) {
            XCTAssertEqual(($0 as? VaultReadError).map { $0.resultCode & 0xff }, SQLITE_CANTOPEN)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "read-only: nothing is created")
        let link = folder.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: VaultLocation(folder: folder).databaseURL)
        XCTAssertThrowsError(try VaultReader.ReadOnlyConnection(path: link.path), "SQLITE_OPEN_NOFOLLOW") {
            XCTAssertEqual(($0 as? VaultReadError).map { $0.resultCode & 0xff }, SQLITE_CANTOPEN)
        }
        // With an index file beside it, the database is named by a `file:` URI: no link is followed either.
        XCTAssertTrue(FileManager.default.createFile(atPath: link.path + "-shm", contents: Data()))
        XCTAssertThrowsError(try VaultReader.ReadOnlyConnection(path: link.path), "a URI with SQLITE_OPEN_NOFOLLOW") {
            XCTAssertEqual(($0 as? VaultReadError).map { $0.resultCode & 0xff }, SQLITE_CANTOPEN)
        }
    }
}

extension Result where Failure == Error {
    fileprivate var error: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
