import AuthCatCore
import AuthCatEssentials
import Foundation

/// One `otpauth://` URI per line: the plain export of Ente Auth, 2FAS,
/// pass-otp and others. Blank lines and lines starting with `#` are ignored.
///
/// Ente Auth adds a `codeDisplay` parameter holding JSON; its `tags` and
/// `note` are kept, and entries it marks `trashed` are reported, not imported.
/// Yandex (`otpauth://yaotp/`) and mOTP (`motp://`) lines are read as Aegis
/// writes them, with their `pin`; one without a PIN is reported, since
/// nothing in the file can supply it.
public enum OTPAuthFormat: ImportFormatParser {
    public static let format = ImportFormat.otpauth

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let text = try TextLines.text(of: data, format: format)
        var result = ParsedImport(format: format)
        let uris = TextLines.lines(of: text).filter { !$0.text.hasPrefix("#") }
        try result.checkRoom(forEntries: uris.count)
        for (lineNumber, line) in uris {
            let position = EntryPosition.line(lineNumber, entry: result.entryCount + 1)
            try result.read(position, label: label(of: line)) { try entry(line, position: position) }
        }
        return result
    }

    /// One URI as an entry.
    static func entry(_ line: Substring, position: EntryPosition) throws -> ImportEntry {
        let uri = String(line)
        try checkSupportedType(uri)
        var draft: AccountDraft
        do {
            draft = try OTPAuthURI.parse(uri)
        } catch OTPAuthURIError.unknownAlgorithm {
            throw EntryProblem.unsupported("its algorithm is not supported (only SHA1, SHA256 and SHA512)")
        }
        if draft.otp.kind.needsPIN, draft.pin == nil {
            throw EntryProblem.invalid(
                "it has no pin parameter, which \(draft.otp.kind.rawValue) codes need; add the account with its PIN instead"
            )
        }
        if let display = try EnteCodeDisplay(query: query(of: uri)) {
            guard !display.trashed else { throw EntryProblem.unsupported("it is in Ente Auth's trash") }
            draft.tags = Account.normalizedTags(display.tags)
            draft.note = display.note
        }
        return try ImportEntry(position: position, draft: draft)
    }

    /// The OTP types other apps put in otpauth URIs that authcat cannot make
    /// codes for are reported as unsupported rather than as broken.
    private static func checkSupportedType(_ uri: String) throws {
        guard uri.lowercased().hasPrefix("otpauth://") else { return }
        let type = uri.dropFirst("otpauth://".count).prefix { $0 != "/" && $0 != "?" }.lowercased()
        guard !["totp", "hotp", "steam", "yaotp"].contains(type) else { return }
        let shown = String(type.prefix(16).filter { $0.isLetter || $0.isNumber })
        throw EntryProblem.unsupported(
            "OTP type '\(shown)' is not supported in an otpauth:// URI (these bring TOTP, HOTP, Steam and Yandex as "
                + "yaotp; mOTP comes as a motp:// line with secret and pin, as Aegis writes it, or with "
                + "'authcat add --type motp')")
    }

    /// The query of a URI, after `?` and before `#`.
    static func query(of uri: String) -> Substring {
        guard let mark = uri.firstIndex(of: "?") else { return "" }
        return uri[uri.index(after: mark)...].prefix { $0 != "#" }
    }

    /// `Issuer:name` from the URI's label, for messages about a line that may
    /// not parse. Without a `?` ending the label, or with query characters in
    /// it, the "label" could run into the secret, so there is none.
    static func label(of line: Substring) -> String? {
        guard let scheme = line.range(of: "://"), let query = line.firstIndex(of: "?"), scheme.upperBound <= query
        else { return nil }
        let path = line[scheme.upperBound..<query]
        // motp://Issuer:account has no type before its label.
        let isMOTP = line[..<scheme.lowerBound].lowercased() == OTPAuthURI.motpScheme
        guard let slash = isMOTP ? path.startIndex : path.firstIndex(of: "/") else { return nil }
        let label = isMOTP ? path[...] : path[path.index(after: slash)...]
        guard !label.isEmpty, !label.contains("="), !label.contains("&"), !label.contains("#") else { return nil }
        return String(label).removingPercentEncoding ?? String(label)
    }
}

extension OTPAuthFormat {
    /// The account's otpauth URI; tags and a note are added in Ente Auth's
    /// `codeDisplay` parameter, which other apps ignore and authcat reads back.
    static func uri(for item: ExportItem) -> String {
        let account = item.account
        var uri = OTPAuthURI.make(
            issuer: account.issuer, name: account.name, parameters: account.otp, secret: item.secret,
            pin: item.pin)
        if !account.tags.isEmpty || !account.note.isEmpty {
            uri += EnteCodeDisplay(tags: account.tags, note: account.note).queryItem
        }
        return uri
    }
}
