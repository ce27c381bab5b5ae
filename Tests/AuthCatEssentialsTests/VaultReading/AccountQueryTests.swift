import AuthCatEssentials
import Foundation
import XCTest

final class AccountQueryTests: XCTestCase {
    private func account(_ issuer: String, _ name: String) -> Account {
        Account(id: UUID(), issuer: issuer, name: name, otp: OTPParameters(), createdAt: Date(), updatedAt: Date())
    }

    func testIdThenExactLabelThenSubstring() {
        let github = account("GitHub", "alice")
        let githubWork = account("GitHub", "alice-work")
        let gitlab = account("GitLab", "bob")
        let all = [github, githubWork, gitlab]
        XCTAssertEqual(AccountQuery(gitlab.id.uuidString.lowercased()).matches(in: all), [gitlab])
        XCTAssertEqual(AccountQuery("github:ALICE").matches(in: all), [github])
        XCTAssertEqual(AccountQuery("ali").matches(in: all), [github, githubWork])
        XCTAssertEqual(AccountQuery("lab").matches(in: all), [gitlab])
        XCTAssertEqual(AccountQuery("nothing").matches(in: all), [])
    }

    func testAWholeIssuerOrNameWinsOverAPart() {
        let tiny = account("Tiny", "alice")
        let tiny2 = account("Tiny2", "bob")
        let github = account("GitHub", "alice")
        let githubWork = account("GitHub", "alice-work")
        let all = [tiny, tiny2, github, githubWork]
        XCTAssertEqual(AccountQuery("TINY").matches(in: all), [tiny])
        XCTAssertEqual(AccountQuery("tin").matches(in: all), [tiny, tiny2])
        XCTAssertEqual(AccountQuery("alice").matches(in: all), [tiny, github])
        XCTAssertEqual(AccountQuery("github").matches(in: all), [github, githubWork])
    }

    /// A start several labels share past the colon names them all, so that
    /// a word a shell completed to it (`GitLab:`) still runs and lists them;
    /// it never names one account alone: `ISSUER:NAME` stays exact.
    func testAStartSeveralLabelsShareNamesThemAllButNeverOneAlone() {
        let alice = account("GitLab", "alice")
        let bob = account("GitLab", "bob")
        let bobby = account("GitLab", "bobby")
        let hub = account("GitHub", "alice")
        let colon = account("Is:su", "er:x")
        let colon2 = account("Is:su", "er:y")
        let zoe = account("Mäil", "Zoë")
        let zoey = account("Mail", "zoey")
        let all = [alice, bob, bobby, hub, colon, colon2, zoe, zoey]
        XCTAssertEqual(AccountQuery("GitLab:").matches(in: all), [alice, bob, bobby])
        XCTAssertEqual(AccountQuery("gitlab:B").matches(in: all), [bob, bobby])
        XCTAssertEqual(AccountQuery("gitlab:bob").matches(in: all), [bob], "the exact label")
        XCTAssertEqual(AccountQuery("mail:zo").matches(in: all), [zoe, zoey])
        XCTAssertEqual(AccountQuery("is:su:er:").matches(in: all), [colon, colon2])
        // One account alone is never named so: not bobby for a removed bob.
        XCTAssertEqual(AccountQuery("gitlab:bobb").matches(in: [alice, bob, bobby]), [])
        XCTAssertEqual(AccountQuery("gitlab:bob").matches(in: [alice, bobby]), [])
        XCTAssertEqual(AccountQuery("gitlab:al").matches(in: all), [], "a start of one label")
        XCTAssertEqual(AccountQuery("gitlab:lic").matches(in: all), [], "inside a name is not its start")
        // A part of the issuer before the colon is not the issuer.
        XCTAssertEqual(AccountQuery("lab:b").matches(in: all), [])
        // Every start that several labels share names each of them, or is a whole label.
        for account in all {
            let label = Array(account.label)
            for end in 1...label.count {
                let start = String(label[..<end])
                let sharing = all.filter { $0.label.lowercased().hasPrefix(start.lowercased()) }
                guard sharing.count > 1, !sharing.contains(where: { $0.label == start }) else { continue }
                let named = Set(AccountQuery(start).matches(in: all).map(\.id))
                XCTAssertTrue(named.isSuperset(of: sharing.map(\.id)), start)
            }
        }
    }

    /// The vault's index finds an exact label by `labelKeys`: they must name
    /// exactly the accounts whose label is the query, case ignored, colons
    /// in issuers and names included.
    func testTheLabelKeysAreExactlyTheLabelsKeys() {
        let accounts = [
            account("a:b", "c"), account("a", "b:c"), account("", "x:y"), account("", "y"), account("x", "y"),
            account("", ":y"), account("GitHub", "alice"), account("ΟΔΟΣ", "Σ"), account("İ", "K\u{212A}"),
        ]
        let queries = [
            "A:B:C", "a:b", "x:y", ":y", "y", "::y", "github:ALICE", "github:", ":", "", "οδος:σ", "ΟΔΟΣ:Σ",
            "i̇:kk", "İ:K\u{212A}",
        ]
        for query in queries {
            let keys = Set(AccountQuery(query).labelKeys)
            let byKey = accounts.filter { keys.contains($0.identityKey) }
            XCTAssertEqual(
                byKey, accounts.filter { $0.label.lowercased() == query.lowercased() }, query.debugDescription)
        }
        XCTAssertEqual(AccountQuery("A:B:C").matches(in: accounts), [accounts[0], accounts[1]])
        XCTAssertEqual(AccountQuery(":y").matches(in: accounts), [accounts[5]], "the label of the name `:y`, not y's")
    }

    /// `matches(in:)` is the id rule, then the label rule, then `nameMatches(in:)`.
    func testTheNameRulesAloneAreWhatFollowsNoIdAndNoLabel() {
        let github = account("GitHub", "alice")
        let named = account("", "github:alice")
        let all = [github, named, account("Tiny", "bob"), account("Tiny2", "bob")]
        XCTAssertEqual(AccountQuery("github:alice").matches(in: all), [github, named], "both labels are the query")
        XCTAssertEqual(AccountQuery("github:alice").nameMatches(in: all), [named], "a whole name")
        // With accents, the label rule (exact, case ignored) misses what the name rules then find.
        let zoe = account("GitHub", "Zoë")
        XCTAssertEqual(AccountQuery("github:zoe").matches(in: all + [zoe]), [zoe])
        XCTAssertEqual(AccountQuery("zoe").matches(in: all + [zoe]), [zoe])
        XCTAssertEqual(AccountQuery(github.id.uuidString).matches(in: all), [github])
        XCTAssertEqual(AccountQuery(github.id.uuidString).nameMatches(in: all), [])
        for query in ["tiny", "tin", "bob", "b", "nothing"] {
            XCTAssertEqual(AccountQuery(query).matches(in: all), AccountQuery(query).nameMatches(in: all), query)
        }
    }

    /// Parts of ASCII names are compared as bytes, others as characters: both
    /// must decide as `String.contains` on the folded names does (lowercased,
    /// accents off: `e` finds café, whether its é is one character or two).
    func testPartsMatchAsCharactersDoOnlyByteFastWhereThatIsTheSame() {
        let names = [
            "Ünïcode", "cafe\u{301}", "café", "a\r\nb", "a\rb", "KELVIN\u{212A}", "İstanbul", "plain", "dash-ed", "",
        ]
        let accounts = names.enumerated().map { account("I\($0.offset)", $0.element) }
        for query in [
            "e", "é", "\r", "\n", "\r\n", "a\r", "k", "i", "ün", "PLA", "-", "", "stan", "\u{301}", "b", "unic", "CAFE",
        ] {
            let folded = AccountQuery.folded(query)
            let needle = folded.isEmpty ? query.lowercased() : folded
            let fold = AccountQuery.folded
            let expected = accounts.filter { fold($0.issuer) == needle || fold($0.name) == needle }
            let parts = accounts.filter { contains(fold($0.issuer), needle) || contains(fold($0.name), needle) }
            XCTAssertEqual(
                AccountQuery(query).matches(in: accounts), expected.isEmpty ? parts : expected, query.debugDescription)
        }
    }

    /// Whether `part` appears in `text` character by character, as the
    /// standard library's `contains` decides (Foundation, imported here,
    /// would compare UTF-16 units instead).
    private func contains(_ text: String, _ part: String) -> Bool {
        let characters = Array(text)
        let wanted = Array(part)
        guard wanted.count <= characters.count else { return false }
        return (0...(characters.count - wanted.count)).contains {
            Array(characters[$0..<($0 + wanted.count)]) == wanted
        }
    }

    /// A query is echoed so that a typo shows, unless it could be a secret pasted where a name belongs.
    func testAQueryThatCouldBeASecretIsNotQuotedInMessages() {
        let echoed = [
            "github", "GitHub:alice", "alice@example.com", "Microsoft 365 work", "aws-prod-account",
            "tiny", "shop.example.org", "Ünïcode-Konto-Nummer-zwei", UUID().uuidString,
            "JBSWY3DPEHPK3PX", "my github work account", "acme corp - staging", "Microsoft Outlook",
            "GitHub Enterprise", "AWS IAM Production", "Personal-Banking",
        ]
        for query in echoed {
            XCTAssertEqual(AccountQuery(query).quotedForMessages, "'\(query)'", query)
        }
        let heldBack = [
            "JBSWY3DPEHPK3PXP", "jbswy3dpehpk3pxp", "JBSW Y3DP EHPK 3PXP", "jbsw-y3dp-ehpk-3pxp-jb",
            "JBSWY3DP EHPK3PXP", "JBSWY3DPEH PK3PXP",
            "jbswy3 dpehpk3pxp", "3132 3334353637 38393031", "JBSWY3DPEHPK3PXP====",
            "3132333435363738393031323334353637383930", "cnFzdGV4YW1wbGVzZWNyZXQ+/w==",
            "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP", "otpauth-migration://offline?data=x",
        ]
        for query in heldBack {
            XCTAssertEqual(AccountQuery(query).quotedForMessages, "the query (not shown: it could be a secret)", query)
        }
        XCTAssertEqual(
            VaultError.notFound("JBSWY3DPEHPK3PXP").description,
            "no account matches the query (not shown: it could be a secret)")
        XCTAssertEqual(VaultError.notFound("gitlab").description, "no account matches 'gitlab'")
        // The quick front prints these two as their description alone; a step would make it differ from authcat-cli.
        XCTAssertNil(VaultError.notFound("gitlab").nextStep)
        XCTAssertNil(VaultError.ambiguous("git", candidates: ["GitHub:a", "GitLab:b"]).nextStep)
    }
}
