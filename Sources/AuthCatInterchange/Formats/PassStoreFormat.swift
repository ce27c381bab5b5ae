import AuthCatCore
import AuthCatEssentials
import Foundation

/// The entries of a password store (pass, gopass), decrypted. An entry is
/// text: its first line the password, then free lines. pass-otp keeps an
/// `otpauth://` URI on a line of its own; gopass may hold a `totp:` field
/// instead, with a URI or a bare Base32 secret. An entry with neither is
/// not an authenticator's and is left out (counted in a warning).
///
/// The account is named by its URI; a bare secret, or a URI without a label,
/// by the entry's path: `site/user` is issuer `site`, account `user`. The
/// password line is never read.
public enum PassStoreFormat: ImportFormatParser {
    public static let format = ImportFormat.pass

    /// One decrypted entry, as `pass show NAME` prints it.
    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let text = try TextLines.text(of: data, format: format)
        guard let code = code(in: text) else {
            throw ImportError.malformed(format, "it holds no otpauth:// line and no totp: field")
        }
        var result = ParsedImport(format: format)
        try result.read(.entry(1), label: nil) { try entry(code, named: "", position: .entry(1)) }
        return result
    }

    /// The entries of `store`, each decrypted by `decrypt`. An entry it
    /// cannot decrypt (`PassStore.DecryptionFailure`) is rejected, named by
    /// its path; any other error it throws stops the whole import.
    public static func parse(
        _ store: PassStore, decrypt: (PassStore.File) throws -> SecretBytes
    ) throws
        -> ParsedImport
    {
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: store.files.count)
        var withoutCode = 0
        for (index, file) in store.files.enumerated() {
            let position = EntryPosition(number: index + 1, description: file.path)
            guard !file.tooLarge else {
                try result.reject(
                    position, label: nil,
                    reason: .invalid("it is larger than \(PassStore.maximumFileSize >> 20) MiB, too large for an entry")
                )
                continue
            }
            let text: String
            do {
                let plain = try decrypt(file)
                text = plain.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            } catch let failure as PassStore.DecryptionFailure {
                try result.reject(position, label: nil, reason: .invalid(failure.reason))
                continue
            }
            guard let code = code(in: text) else {
                withoutCode += 1
                continue
            }
            try result.read(position, label: label(of: code)) { try entry(code, named: file.name, position: position) }
        }
        if withoutCode > 0 {
            result.warnings.append(
                "\(withoutCode) \(withoutCode == 1 ? "entry holds" : "entries hold") no otpauth:// line or totp: field "
                    + "and \(withoutCode == 1 ? "was" : "were") left out")
        }
        if store.skippedLinks > 0 {
            result.warnings.append(
                "\(store.skippedLinks) symbolic \(store.skippedLinks == 1 ? "link was" : "links were") not followed")
        }
        return result
    }

    /// Where an entry keeps its code: a URI line, or gopass's field.
    enum Code: Equatable {
        case uri(String)
        case totpField(String)
    }

    /// The first `otpauth://` line of `text` (as pass-otp reads it), else its `totp:` field.
    static func code(in text: String) -> Code? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        // The first line too: `pass otp insert` makes an entry of the URI alone.
        if let uri = lines.first(where: { $0.lowercased().hasPrefix("otpauth://") }) { return .uri(uri) }
        for line in lines.dropFirst() where line.lowercased().hasPrefix("totp:") {
            let value = line.dropFirst("totp:".count).trimmingCharacters(in: .whitespaces)
            return value.lowercased().hasPrefix("otpauth://") ? .uri(value) : .totpField(value)
        }
        return nil
    }

    static func entry(_ code: Code, named path: String, position: EntryPosition) throws -> ImportEntry {
        let (issuer, name) = names(ofPath: path)
        switch code {
        case .uri(let uri):
            do {
                return try OTPAuthFormat.entry(Substring(uri), position: position)
            } catch OTPAuthURIError.missingLabel, OTPAuthURIError.missingAccountName {
                guard !name.isEmpty else { throw OTPAuthURIError.missingLabel }
                return try OTPAuthFormat.entry(Substring(labelled(uri, issuer, name)), position: position)
            }
        case .totpField(let secret):
            let draft = try AccountDraft(issuer: issuer, name: name, base32Secret: secret)
            return try ImportEntry(position: position, draft: draft)
        }
    }

    /// `site/user` as issuer `site` and account `user`; a lone name is the account's.
    static func names(ofPath path: String) -> (issuer: String, name: String) {
        let parts = path.split(separator: "/").map(String.init)
        return (parts.count > 1 ? parts[parts.count - 2] : "", parts.last ?? "")
    }

    /// `uri` with `issuer:name` as its label, in place of an empty one.
    private static func labelled(_ uri: String, _ issuer: String, _ name: String) -> String {
        guard let scheme = uri.range(of: "://") else { return uri }
        let rest = uri[scheme.upperBound...]
        let type = rest.prefix { $0 != "/" && $0 != "?" }
        let query = rest.drop { $0 != "?" }
        let label =
            (issuer.isEmpty ? name : "\(issuer):\(name)")
            .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["?", "#", "/"])) ?? name
        return "\(uri[..<scheme.upperBound])\(type)/\(label)\(query)"
    }

    private static func label(of code: Code) -> String? {
        guard case .uri(let uri) = code else { return nil }
        return OTPAuthFormat.label(of: Substring(uri))
    }
}
