#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An account as the vault stores it, without its secret.
public struct Account: Identifiable, Codable, Equatable, Sendable {
    public var id: UUID
    /// Who issued the secret ("GitHub"); may be empty.
    public var issuer: String
    /// The account at the issuer ("alice@example.com"); never empty.
    public var name: String
    public var otp: OTPParameters
    /// Sorted, one per tag as tags match (`Account.normalizedTags`).
    public var tags: [String]
    public var note: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Set when the account was removed; `authcat restore` clears it.
    public var deletedAt: Date?

    public init(
        id: UUID, issuer: String, name: String, otp: OTPParameters, tags: [String] = [], note: String = "",
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.id = id
        self.issuer = issuer
        self.name = name
        self.otp = otp
        self.tags = Account.normalizedTags(tags)
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    /// The key under which two accounts count as the same: label, case folded.
    public var identityKey: String { Account.identityKey(issuer: issuer, name: name) }

    public static func identityKey(issuer: String, name: String) -> String {
        "\(issuer.lowercased())\u{1F}\(name.lowercased())"
    }

    /// The identity keys of exactly the accounts whose label is `label`,
    /// case ignored: a label is "issuer:name", or just the name when there
    /// is no issuer, and the issuer may itself contain a colon, so every
    /// colon but a first character is a possible split. (`:name` is not the
    /// label of an account without an issuer; its label is `name`.)
    public static func identityKeys(forLabel label: String) -> [String] {
        var keys = [identityKey(issuer: "", name: label)]
        for colon in label.indices where label[colon] == ":" && colon != label.startIndex {
            keys.append(identityKey(issuer: String(label[..<colon]), name: String(label[label.index(after: colon)...])))
        }
        return keys
    }
}

/// An account that is not yet in the vault, with its secret: what `add`,
/// imports and otpauth URIs produce.
public struct AccountDraft: Sendable {
    public var issuer: String
    public var name: String
    public var otp: OTPParameters
    public var tags: [String]
    public var note: String
    public var secret: SecretBytes
    /// The PIN (UTF-8) of a Yandex or mOTP account, sealed like the secret; nil for the other kinds.
    public var pin: SecretBytes?
    /// Set when the secret's Base32 text was longer than its bytes need and
    /// the extra bits were dropped (`Base32.decodeSecret`), so that whoever
    /// shows the result can warn; never stored.
    public var secretLeftover: Base32Leftover?

    public init(
        issuer: String = "", name: String, otp: OTPParameters = OTPParameters(), tags: [String] = [], note: String = "",
        secret: SecretBytes, pin: SecretBytes? = nil
    ) {
        self.issuer = issuer
        self.name = name
        self.otp = otp
        self.tags = Account.normalizedTags(tags)
        self.note = note
        self.secret = secret
        self.pin = pin
    }

    /// Checks that the draft has a PIN exactly when its kind needs one, a
    /// valid PIN, and for Yandex a 16-byte secret.
    /// - Throws: `OTPPINError`, or `OTPParameterError.missingPIN`.
    public func checkPIN() throws {
        guard otp.kind.needsPIN else {
            guard pin == nil else { throw OTPPINError.unexpected(otp.kind) }
            return
        }
        guard let pin else { throw OTPParameterError.missingPIN(otp.kind) }
        try OTPPIN.check(pin)
        if otp.kind == .yandex, secret.count != OTPPIN.yandexSecretLength {
            throw OTPPINError.yandexSecretLength(secret.count)
        }
    }

    /// Secrets shorter than 80 bits are weak (RFC 4226 asks for 128, recommends 160).
    public var hasShortSecret: Bool { secret.count < 10 }
}

extension Account {
    /// Tags as the vault stores them: a JSON array of strings.
    public static func tagsJSON(_ tags: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(tags), as: UTF8.self)
    }

    /// The tags of a stored JSON array; none when it does not read. Most
    /// accounts have no tags, and skipping the JSON decoder for them keeps
    /// listing 10,000 accounts fast.
    public static func tags(fromJSON json: String) -> [String] {
        guard json != "[]" else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
