import Foundation
import XCTest

/// `authcat follow`: a file another app keeps rewriting (here, by the test
/// between runs), followed by the vault. Checked with `list --json` and
/// `history --json`, not with what follow prints.
final class FollowCommandTests: InterchangeTests {
    // MARK: Following changes

    func testAddImportsTheFileAndRemembersIt() throws {
        let path = try phoneFile(aegisEntries())
        let output = try succeed(["follow", "add", path, "--name", "phone"])
        XCTAssertTrue(output.hasPrefix("phone: added 6\n"), output)
        XCTAssertEqual(try listedAccounts().count, 6)
        let files = try jsonArray(succeed(["follow", "list", "--json"]))
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(files[0]["name"] as? String, "phone")
        XCTAssertEqual(files[0]["path"] as? String, path)
        XCTAssertEqual(files[0]["format"] as? String, "aegis")
        XCTAssertEqual(files[0]["password_kept"] as? Bool, false)
        XCTAssertEqual(try historyAuthors().first, "follow:phone")
        XCTAssertTrue(try succeed(["follow", "now"]).contains("phone: unchanged"))
    }

    func testAnAddedChangedAndRemovedEntryIsFollowedAndHistoryNamesTheFile() throws {
        var entries = aegisEntries()
        let path = try phoneFile(entries)
        try succeed(["follow", "add", path, "--name", "phone"])
        let before = try idsByLabel()
        // Renamed (its uuid stays), a new secret, removed, and one added.
        entries[0]["name"] = "alice@work.example"
        var info = try XCTUnwrap(entries[1]["info"] as? [String: Any])
        info["secret"] = Self.otherSecret
        entries[1]["info"] = info
        let removed = entries.remove(at: 2)
        entries.append(aegisEntry(uuid: UUID().uuidString, issuer: "New", name: "carol", secret: Self.rfcSecret))
        try phoneFile(entries)

        let report = try jsonArray(succeed(["follow", "now", "--json"]))
        XCTAssertEqual(report.first?["status"] as? String, "applied")
        let after = try idsByLabel()
        XCTAssertEqual(after["GitHub:alice@work.example"], before["GitHub:alice@example.com"], "renamed, same account")
        XCTAssertNil(after["GitHub:alice@example.com"])
        XCTAssertNotNil(after["New:carol"])
        let removedLabel = "\(removed["issuer"] as? String ?? ""):\(removed["name"] as? String ?? "")"
        XCTAssertNil(after[removedLabel], "removed here")
        let secretChanged = try XCTUnwrap(before.first { $0.key.hasPrefix("Ünïcødé Bank:") }?.value)
        XCTAssertEqual(try succeed(["show", secretChanged, "--uri"]).contains("secret=\(Self.otherSecret)"), true)
        // One transaction, authored by the file.
        XCTAssertEqual(try historyAuthors().prefix(1), ["follow:phone"])
        let history = try jsonArray(succeed(["history", "--json"]))
        XCTAssertEqual(history.first?["author"] as? String, "follow")
        XCTAssertEqual(history.first?["source"] as? String, "phone")
        XCTAssertEqual((history.first?["changes"] as? [Any])?.count, 4)
        // The removed account can be restored.
        try succeed(["restore", removedLabel])
        XCTAssertNotNil(try idsByLabel()[removedLabel])
    }

    func testWithoutIDsAnEntryIsFollowedByItsSecretAcrossARename() throws {
        let path = try scratchFile(
            "codes.txt", otpauthLines(["GitHub:alice": Self.rfcSecret, "Mail:bob": Self.otherSecret]))
        try succeed(["follow", "add", path])
        let before = try idsByLabel()
        try scratchFile(
            "codes.txt", otpauthLines(["GitHub:alice-renamed": Self.rfcSecret, "Mail:bob": Self.otherSecret]))
        try succeed(["follow", "now"])
        let after = try idsByLabel()
        XCTAssertEqual(after["GitHub:alice-renamed"], before["GitHub:alice"])
        XCTAssertEqual(after.count, 2)
        // A new secret under the same name is the same entry too.
        try scratchFile(
            "codes.txt", otpauthLines(["GitHub:alice-renamed": "MFRGGZDFMZTWQ2LK", "Mail:bob": Self.otherSecret]))
        try succeed(["follow", "now"])
        XCTAssertEqual(try idsByLabel(), after)
    }

    func testALocalEditTheFileAlsoChangedIsReplacedAndOneItLeftAloneStays() throws {
        var entries = aegisEntries()
        let path = try phoneFile(entries)
        try succeed(["follow", "add", path, "--name", "phone"])
        try succeed(["edit", "GitHub:alice@example.com", "--note", "edited here"])
        try succeed(["edit", "GitHub:alice@example.com", "--tag", "Mine"])
        entries[0]["note"] = "changed on the phone"
        try phoneFile(entries)

        let report = try jsonArray(succeed(["follow", "now", "--json"]))
        let updated = try XCTUnwrap(report.first?["updated"] as? [[String: Any]])
        XCTAssertEqual(updated.first?["fields"] as? [String], ["note"])
        XCTAssertEqual(updated.first?["replaced_local_edits"] as? [String], ["note"])
        let text = try succeed(["follow", "now"])
        XCTAssertTrue(text.contains("unchanged"), text)
        let shown = try succeed(["show", "GitHub:alice@example.com", "--json"])
        let account = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        XCTAssertEqual(account["note"] as? String, "changed on the phone")
        let tags = try XCTUnwrap(account["tags"] as? [String])
        XCTAssertTrue(tags.contains("Mine"), "the tag added here stays: the file left tags alone; \(tags)")
        let authors = try historyAuthors()
        XCTAssertEqual(Array(authors.prefix(3)), ["follow:phone", "cli", "cli"], "history keeps both edits")
    }

    func testAccountsNotFromTheFileAreNeverTouched() throws {
        try add("mine", issuer: "Local", secret: Self.otherSecret)
        let path = try phoneFile(aegisEntries())
        try succeed(["follow", "add", path])
        try phoneFile([])
        try succeed(["follow", "now"])
        XCTAssertEqual(try idsByLabel().keys.sorted(), ["Local:mine"])
    }

    func testAnAccountAlreadyHereIsAdoptedNotDuplicated() throws {
        let path = try phoneFile(aegisEntries())
        try succeed(["import", path])
        let before = try idsByLabel()
        let added = try succeed(["follow", "add", path, "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(added.utf8)) as? [String: Any])
        XCTAssertEqual((report["adopted"] as? [String])?.count, 6)
        XCTAssertEqual(try idsByLabel(), before)
        // Adopted accounts follow the file from then on.
        var entries = aegisEntries()
        entries[0]["name"] = "renamed"
        try phoneFile(entries)
        try succeed(["follow", "now"])
        XCTAssertEqual(try idsByLabel()["GitHub:renamed"], before["GitHub:alice@example.com"])
    }

    // MARK: Encrypted files

    func testAnEncryptedFilesPasswordIsKeptAndAChangedOneIsReported() throws {
        let source = otherHome("source")
        let password = try scratch("password", "backup-password-1\n")
        try authcat.run(
            ["--home", source, "add", "one", "--issuer", "Phone"], stdin: Data("\(Self.rfcSecret)\n".utf8),
            withHome: false)
        let backup = authcat.root.appendingPathComponent("phone.authcat").path
        try makeBackup(of: source, to: backup, passwordFile: password)
        try succeed(
            ["follow", "add", backup, "--name", "phone"], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": password])
        XCTAssertEqual(try jsonArray(succeed(["follow", "list", "--json"])).first?["password_kept"] as? Bool, true)

        // Changed, and read without a terminal or a password file: the kept password opens it.
        try authcat.run(
            ["--home", source, "add", "two", "--issuer", "Phone"], stdin: Data("\(Self.otherSecret)\n".utf8),
            withHome: false)
        try makeBackup(of: source, to: backup, passwordFile: password)
        try succeed(["follow", "now"])
        XCTAssertEqual(try idsByLabel().keys.sorted(), ["Phone:one", "Phone:two"])

        // A new password: reported, in --json and the exit status, and nothing changes.
        let newPassword = try scratch("password2", "backup-password-2\n")
        try authcat.run(["--home", source, "rm", "Phone:one", "--yes"], withHome: false)
        try makeBackup(of: source, to: backup, passwordFile: newPassword)
        let snapshot = try VaultSnapshot.take(authcat)
        let result = try authcat.run(["follow", "now", "--json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let report = try jsonArray(result.stdout)
        XCTAssertEqual(report.first?["status"] as? String, "password_needed")
        XCTAssertEqual(try VaultSnapshot.take(authcat).listing, snapshot.listing)
        XCTAssertTrue(
            result.stderr.contains("1 of 1 followed file could not be applied; nothing of it changed"), result.stderr)
        XCTAssertFalse(result.stdout.contains("backup-password"), "no password in output")

        // On a terminal, the new password is asked for, and kept.
        let typed = try authcat.runInTerminal(["follow", "now"], typing: ["backup-password-2\n"])
        XCTAssertEqual(typed.status, 0, typed.stdout)
        XCTAssertTrue(typed.stdout.contains("the kept password of 'phone' no longer opens it"), typed.stdout)
        XCTAssertFalse(typed.stdout.contains("backup-password-2"), "not echoed")
        XCTAssertEqual(try idsByLabel().keys.sorted(), ["Phone:two"])
        try succeed(["follow", "now"])

        // Given in a file, it is kept too.
        try authcat.run(
            ["--home", source, "add", "three", "--issuer", "Phone"], stdin: Data("\(Self.rfcSecret)\n".utf8),
            withHome: false)
        let thirdPassword = try scratch("password3", "backup-password-3\n")
        try makeBackup(of: source, to: backup, passwordFile: thirdPassword)
        try succeed(["follow", "now"], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": thirdPassword])
        XCTAssertEqual(try idsByLabel().keys.sorted(), ["Phone:three", "Phone:two"])
        try succeed(["follow", "now"])
    }

    /// A look at an unchanged file reads nothing sealed, so a locked vault
    /// (cron, no passphrase) is not asked; a changed one needs the vault key.
    func testALockedVaultIsAskedNothingForAnUnchangedFile() throws {
        var entries = aegisEntries()
        let path = try phoneFile(entries)
        try succeed(["follow", "add", path, "--name", "phone"])
        let passphrase = try scratch("vault-passphrase", "a vault passphrase\n")
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase])
        try succeed(["lock"])
        XCTAssertEqual(try succeed(["follow", "now"]), "phone: unchanged\n")

        entries[0]["name"] = "renamed"
        try phoneFile(entries)
        let snapshot = try VaultSnapshot.take(authcat)
        assertOneLineError(try authcat.run(["follow", "now"]), containing: "protected by a passphrase", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat).listing, snapshot.listing)
        let applied = try succeed(["follow", "now"], environment: ["AUTHCAT_PASSPHRASE_FILE": passphrase])
        XCTAssertTrue(applied.hasPrefix("phone: changed 1"), applied)
    }

    // MARK: Failures

    func testAFileThatFailsChangesNothingAndIsReported() throws {
        let path = try phoneFile(aegisEntries())
        try succeed(["follow", "add", path, "--name", "phone"])
        let snapshot = try VaultSnapshot.take(authcat)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try scratchFile("phone.json", whole.prefix(whole.count / 2))
        let result = try authcat.run(["follow", "now"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.hasPrefix("phone: nothing applied: "), result.stdout)
        XCTAssertEqual(try VaultSnapshot.take(authcat).listing, snapshot.listing)
        let listed = try jsonArray(succeed(["follow", "list", "--json"]))
        XCTAssertNotNil(listed.first?["problem"] as? String)
        let doctor = try authcat.run(["doctor", "--no-clock", "--json"])
        XCTAssertTrue(doctor.stdout.contains("\"followed_file\""), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("the last look at 'phone'"), doctor.stdout)

        try FileManager.default.removeItem(atPath: path)
        XCTAssertTrue(try authcat.run(["follow", "now"]).stdout.contains("the file is gone"))
        XCTAssertTrue(try authcat.run(["doctor", "--no-clock"]).stdout.contains("the followed file 'phone'"))
        XCTAssertEqual(try VaultSnapshot.take(authcat).listing, snapshot.listing)

        try scratchFile("phone.json", whole)
        XCTAssertTrue(try succeed(["follow", "now"]).hasPrefix("phone: no account changed"))
        XCTAssertNil(try jsonArray(succeed(["follow", "list", "--json"])).first?["problem"] as? String)
    }

    func testAFileWithUnreadableEntriesRemovesNothing() throws {
        var entries = aegisEntries()
        let path = try phoneFile(entries)
        try succeed(["follow", "add", path])
        entries.removeLast()
        var broken = entries[0]
        broken["info"] = ["secret": 12]
        entries[0] = broken
        try phoneFile(entries)
        let result = try authcat.run(["follow", "now"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("no longer in the file kept"), result.stderr)
        XCTAssertEqual(try listedAccounts().count, 6)
    }

    func testBadInputIsOneLineAndChangesNothing() throws {
        let path = try phoneFile(aegisEntries())
        assertOneLineError(try authcat.run(["follow", "now"]), containing: "no accounts in", status: 1)
        assertOneLineError(
            try authcat.run(["follow", "add", path + ".missing"]), containing: "the file is gone", status: 1)
        assertOneLineError(
            try authcat.run(["follow", "add", path, "--name", "a:b"]), containing: "cannot name", status: 1)
        try succeed(["follow", "add", path, "--name", "phone"])
        let snapshot = try VaultSnapshot.take(authcat)
        assertOneLineError(
            try authcat.run(["follow", "add", path, "--name", "again"]), containing: "already followed", status: 1)
        let copy = try scratchFile("copy.json", try Data(contentsOf: URL(fileURLWithPath: path)))
        assertOneLineError(
            try authcat.run(["follow", "add", copy, "--name", "phone"]), containing: "already called 'phone'",
            status: 1)
        assertOneLineError(try authcat.run(["follow", "remove", "nope"]), containing: "no followed file", status: 1)
        assertOneLineError(try authcat.run(["follow", "now", "nope"]), containing: "no followed file", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat).listing, snapshot.listing)
    }

    func testRemoveStopsFollowingAndKeepsTheAccounts() throws {
        let path = try phoneFile(aegisEntries())
        try succeed(["follow", "add", path, "--name", "phone"])
        XCTAssertEqual(
            try succeed(["follow", "remove", "phone"]),
            "no longer following 'phone'; the accounts it brought stay\n")
        try phoneFile([])
        assertOneLineError(try authcat.run(["follow", "now"]), containing: "no file is followed", status: 1)
        XCTAssertEqual(try listedAccounts().count, 6)
    }

    // MARK: Watching

    func testWatchAppliesAFileRenamedIntoPlaceAndNotAHalfWrittenOne() throws {
        var entries = aegisEntries()
        let path = try phoneFile(entries)
        try succeed(["follow", "add", path, "--name", "phone"])
        let watch = try RunningAuthCat(device: authcat, arguments: ["follow", "now", "--watch"], folder: authcat.root)
        defer {
            kill(watch.pid, SIGTERM)
            _ = watch.waitForExit(timeout: 30)
        }
        try waitUntil("the first look: \(watch.stderr)", timeout: 60) { watch.stdout.contains("phone: unchanged") }

        // Written in place, half of it: not applied.
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path))
        try waitUntil("the half-written file refused", timeout: 60) { watch.stdout.contains("nothing applied") }
        XCTAssertEqual(try listedAccounts().count, 6)

        // Written whole under another name and renamed into place, as Syncthing does.
        entries[0]["name"] = "renamed-by-sync"
        let temporary = authcat.root.appendingPathComponent(".syncthing.phone.json.tmp")
        try JSONSerialization.data(withJSONObject: aegisDocument(entries)).write(to: temporary)
        XCTAssertEqual(rename(temporary.path, path), 0)
        try waitUntil("the renamed file applied", timeout: 60) {
            (try? self.idsByLabel()["GitHub:renamed-by-sync"]) != nil
        }
        kill(watch.pid, SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 30), 0, watch.stderr)
    }

    // MARK: Helpers

    /// Writes the Aegis vault with `entries` to phone.json, as if written a while ago; returns its path.
    @discardableResult
    private func phoneFile(_ entries: [[String: Any]]) throws -> String {
        try scratchFile("phone.json", JSONSerialization.data(withJSONObject: aegisDocument(entries)))
    }

    /// Writes a file in the test's folder dated ten seconds ago, so that
    /// `follow` need not wait for it to settle; returns its path.
    @discardableResult
    private func scratchFile(_ name: String, _ content: Data) throws -> String {
        let path = try scratch(name, content)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-10)], ofItemAtPath: path)
        return path
    }

    @discardableResult
    private func scratchFile(_ name: String, _ text: String) throws -> String {
        try scratchFile(name, Data(text.utf8))
    }

    private func aegisDocument(_ entries: [[String: Any]]) -> [String: Any] {
        [
            "version": 1, "header": ["slots": NSNull(), "params": NSNull()],
            "db": ["version": 3, "entries": entries, "groups": []],
        ]
    }

    /// The entries of the Aegis fixture.
    private func aegisEntries() -> [[String: Any]] {
        let data = try? Data(contentsOf: URL(fileURLWithPath: fixture("aegis_plain.json")))
        let document = data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let db = document?["db"] as? [String: Any]
        return db?["entries"] as? [[String: Any]] ?? []
    }

    private func aegisEntry(uuid: String, issuer: String, name: String, secret: String) -> [String: Any] {
        [
            "type": "totp", "uuid": uuid, "name": name, "issuer": issuer, "note": "",
            "info": ["secret": secret, "algo": "SHA1", "digits": 6, "period": 30],
        ]
    }

    private func otpauthLines(_ accounts: [String: String]) -> String {
        accounts.sorted { $0.key < $1.key }.map { "otpauth://totp/\($0.key)?secret=\($0.value)\n" }.joined()
    }

    private func makeBackup(of home: String, to path: String, passwordFile: String) throws {
        let result = try authcat.run(
            ["--home", home, "backup", "--output", path, "--force"],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": passwordFile], withHome: false)
        XCTAssertEqual(result.status, 0, result.stderr)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-10)], ofItemAtPath: path)
    }

    private func idsByLabel() throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try listedAccounts().map { account in
                let issuer = account["issuer"] as? String ?? ""
                let name = account["name"] as? String ?? ""
                return (issuer.isEmpty ? name : "\(issuer):\(name)", account["id"] as? String ?? "")
            })
    }

    private func historyAuthors() throws -> [String] {
        try jsonArray(succeed(["history", "--json"])).map { entry in
            let author = entry["author"] as? String ?? ""
            return (entry["source"] as? String).map { "\(author):\($0)" } ?? author
        }
    }

    private func jsonArray(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    private func waitUntil(_ what: String, timeout: TimeInterval, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting for \(what)") }
            usleep(100_000)
        }
    }
}
