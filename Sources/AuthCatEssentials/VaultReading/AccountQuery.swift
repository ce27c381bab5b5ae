#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the lookup rule reads of an account: its id, issuer and name. The
/// vault reader matches light rows of these three columns, and reads a whole
/// account only for the one it returns.
public protocol AccountNaming {
    var id: UUID { get }
    var issuer: String { get }
    var name: String { get }
}

extension AccountNaming {
    /// `Issuer:name`, or just the name when there is no issuer.
    public var label: String { Account.label(issuer: issuer, name: name) }
}

extension Account {
    /// `Issuer:name`, or just the name when there is no issuer.
    public static func label(issuer: String, name: String) -> String {
        issuer.isEmpty ? name : "\(issuer):\(name)"
    }
}

extension Account: AccountNaming {}

/// How a user names an account on the command line: its id, then its exact
/// `issuer:name` label, then its exact issuer or exact name, then any part of
/// its issuer or name. The first rule that matches anything decides, so
/// `tiny` names the issuer Tiny even when Tiny2 exists; case is ignored
/// throughout, and the last two rules also ignore accents (`folded`), so
/// `zoe` and `github:zoe` find `GitHub:Zoë`.
///
/// Last, a start that several labels share past the colon (`gitlab:` or
/// `gitlab:b` for GitLab:bob and GitLab:bobby) names them all, so that a word
/// a shell completed to it still runs and lists them; it never names one
/// account alone, so that `ISSUER:NAME` stays exact: `rm gitlab:bob` never
/// removes GitLab:bobby.
///
/// The vault's lookup (`VaultReader.account(matching:)`, which both programs
/// use) applies the first two rules through the vault's indexes, with `id`
/// and `labelKeys`, and `nameMatches(in:)` for the other two; `matches(in:)`
/// applies all four to accounts already in memory.
public struct AccountQuery: Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The first rule: the id the query spells, if it spells one.
    public var id: UUID? { UUID(uuidString: text) }

    /// The second rule: the `Account.identityKey`s of the accounts whose
    /// label the query is, case ignored (`Account.identityKeys(forLabel:)`).
    public var labelKeys: [String] { Account.identityKeys(forLabel: text) }

    /// The accounts the first matching rule names, in the order given.
    public func matches<Named: AccountNaming>(in accounts: [Named]) -> [Named] {
        if let id {
            let byID = accounts.filter { $0.id == id }
            if !byID.isEmpty { return byID }
        }
        let keys = Set(labelKeys)
        let byLabel = accounts.filter { keys.contains(Account.identityKey(issuer: $0.issuer, name: $0.name)) }
        return byLabel.isEmpty ? nameMatches(in: accounts) : byLabel
    }

    /// The third and fourth rules alone, in the order given: the accounts
    /// whose issuer or name is the query (or whose label is, accents
    /// ignored), else those of which it is a part. For a lookup that has
    /// already found nothing by id or label.
    ///
    /// One pass over the accounts, each name folded once: a short query
    /// reads every account of the vault.
    public func nameMatches<Named: AccountNaming>(in accounts: [Named]) -> [Named] {
        // A query of combining marks alone folds to nothing; it is looked for as typed.
        let folded = Self.folded(text)
        let needle = folded.isEmpty ? text.lowercased() : folded
        let needleIsPlain = Self.isPlain(needle)
        // Only a query with a colon can be a label, and the label rule has
        // already compared ASCII labels: the others skip building one.
        let needleHasColon = needle.utf8.contains(UInt8(ascii: ":"))
        let queryIsASCII = text.utf8.allSatisfy { $0 < 0x80 }
        var whole: [Named] = []
        var part: [Named] = []
        var begun: [Named] = []
        for account in accounts {
            let (issuer, issuerIsPlain, issuerWasASCII) = Self.foldedAndPlain(account.issuer)
            let (name, nameIsPlain, nameWasASCII) = Self.foldedAndPlain(account.name)
            if issuer == needle || name == needle
                || (needleHasColon && !issuer.isEmpty && !(queryIsASCII && issuerWasASCII && nameWasASCII)
                    && issuer + ":" + name == needle)
            {
                whole.append(account)
            } else if whole.isEmpty,
                Self.contains(issuer, needle, plain: needleIsPlain && issuerIsPlain)
                    || Self.contains(name, needle, plain: needleIsPlain && nameIsPlain)
            {
                part.append(account)
            } else if whole.isEmpty, part.isEmpty, needleHasColon,
                Self.isIssuerAndNameStart(needle, issuer: issuer, name: name)
            {
                begun.append(account)
            }
        }
        if !whole.isEmpty { return whole }
        return part.isEmpty && begun.count > 1 ? begun : part
    }

    /// Whether `text` contains `needle`, as `String.contains` decides: by
    /// characters, canonically equivalent ones alike. For ASCII without a
    /// carriage return, where every byte is a character of its own (only
    /// CR LF joins two) and equivalence is equality, bytes decide the same,
    /// a hundred times faster than comparing characters.
    /// - Parameter plain: whether both are plain (`isPlain`).
    private static func contains(_ text: String, _ needle: String, plain: Bool) -> Bool {
        guard plain else { return text.contains(needle) }
        let haystack = Array(text.utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= haystack.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// Whether `needle` is `issuer`, a colon and a start of `name` (all
    /// folded), at one of its colons: an issuer may hold a colon too.
    private static func isIssuerAndNameStart(_ needle: String, issuer: String, name: String) -> Bool {
        guard !issuer.isEmpty else { return false }
        return needle.indices.contains { colon in
            guard needle[colon] == ":", needle[..<colon] == issuer else { return false }
            return name.hasPrefix(needle[needle.index(after: colon)...])
        }
    }

    /// ASCII without a carriage return.
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// `folded(text)`, whether that is plain, and whether `text` was ASCII,
    /// with one pass over ASCII text, the common case (as many as lowercasing
    /// and `isPlain` took before accents were folded): this runs for every
    /// account of the vault.
    private static func foldedAndPlain(_ text: String) -> (folded: String, plain: Bool, wasASCII: Bool) {
        var carriageReturn = false
        for byte in text.utf8 {
            if byte >= 0x80 {
                let folded = folded(text)
                return (folded, isPlain(folded), false)
            }
            if byte == 0x0D { carriageReturn = true }
        }
        return (text.lowercased(), !carriageReturn, true)
    }
}

extension AccountQuery {
    /// The query as a message shows it: quoted as typed, so that a user sees
    /// a typo, or not shown when it could be a secret.
    ///
    /// A secret pasted where a name belongs (a slip between two clipboards)
    /// must not be echoed into a terminal, a log or a bug report. The rule:
    /// a query is held back when it is a URI (an otpauth URI carries its
    /// secret), or when it is written as secrets are: 16 or more ASCII letters
    /// and digits (80 bits in Base32, the shortest secret in use), with `=`
    /// padding and Base64's `+`, `/` and `_` allowed, in one run or in groups
    /// of one length split by spaces or dashes (`jbsw y3dp ehpk 3pxp`: at
    /// least two groups of that length, and a last group no longer), or split
    /// anywhere but all in one case of Base32 or hex, with a digit. The
    /// names people type are shorter, or hold a colon, an @, a dot, a letter
    /// beyond ASCII, or words of several lengths in mixed case
    /// (`Microsoft 365 work`, `GitHub Enterprise`); an id (a UUID) is shown,
    /// since it names an account by the first rule.
    public var quotedForMessages: String {
        couldBeASecret ? "the query (not shown: it could be a secret)" : "'\(text)'"
    }

    /// Whether the text is written as a secret is (the rule above); the
    /// command line holds back an unknown command word by the same rule.
    public var couldBeASecret: Bool {
        if id != nil { return false }
        if text.contains("://") { return true }
        let groups = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "-" }).map(Array.init)
        let characters = Array(groups.joined())
        guard characters.allSatisfy(Self.isSecretCharacter),
            characters.filter(Self.isLetterOrDigit).count >= Self.shortestSecretLength
        else { return false }
        return Self.isGroupedLikeASecret(groups) || Self.isInOneSecretAlphabet(characters)
    }

    /// 80 bits in Base32.
    private static let shortestSecretLength = 16

    /// One run, or groups of one length with a last group no longer: how
    /// apps print a secret for typing (`jbsw y3dp ehpk 3pxp`).
    private static func isGroupedLikeASecret(_ groups: [[Unicode.Scalar]]) -> Bool {
        guard let first = groups.first, let last = groups.last else { return false }
        return groups.dropLast().allSatisfy { $0.count == first.count } && last.count <= first.count
            && (groups.count == 1 || groups.filter { $0.count == first.count }.count >= 2)
    }

    /// Base32 or hex in one case, with a digit: what a secret split anywhere
    /// (a wrapped line) still looks like, and a name hardly does.
    private static func isInOneSecretAlphabet(_ characters: [Unicode.Scalar]) -> Bool {
        let text = String(String.UnicodeScalarView(characters.filter { $0 != "=" }))
        let oneCase = text == text.uppercased() || text == text.lowercased()
        let hasDigit = text.contains { $0.isNumber }
        let base32 = text.uppercased().allSatisfy { ("A"..."Z").contains($0) || ("2"..."7").contains($0) }
        let hex = text.uppercased().allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        return oneCase && hasDigit && (base32 || hex)
    }

    private static func isSecretCharacter(_ character: Unicode.Scalar) -> Bool {
        isLetterOrDigit(character) || "=+/_".unicodeScalars.contains(character)
    }

    private static func isLetterOrDigit(_ character: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(character) || ("A"..."Z").contains(character) || ("0"..."9").contains(character)
    }
}
