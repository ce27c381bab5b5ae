import AuthCatCore
import AuthCatEssentials
import Foundation

/// A KeePass 2 XML export: KeePassXC's (Database → Export → XML File, or
/// `keepassxc-cli export --format xml`) or KeePass 2's (Export → KeePass XML
/// (2.x)). `<KeePassFile>` holds `<Meta>` and `<Root>`, whose one `<Group>`
/// nests groups and `<Entry>`s; an entry's fields are `<String>`s of a
/// `<Key>` and a `<Value>`.
///
/// Entries with a code become accounts: the `otp` field (an `otpauth://` URI,
/// or KeeOtp's `key=…&step=…&size=…`) as in the CSV export
/// (`KeePassXCFormat.Item`); KeePass 2's own `TimeOtp-Secret-Base32` (or
/// `-Hex`, `-Base64`, plain `-Secret`) with `TimeOtp-Length`, `-Period` and
/// `-Algorithm`, or `HmacOtp-Secret…` with `HmacOtp-Counter`; or the legacy
/// `TOTP Seed` with `TOTP Settings` (`STEP;DIGITS`, `STEP;S` for Steam).
/// The group below the root becomes a tag, the notes the note. Entries' past
/// versions (`<History>`) and the recycle bin are left out. A plain export writes every value as text
/// (`ProtectInMemory="True"` marks what KeePass hides in memory); a value
/// marked `Protected="True"` is ciphertext of a database's inner stream,
/// which only the database file can open, so its entry is rejected.
public enum KeePassXMLFormat: ImportFormatParser {
    public static let format = ImportFormat.keepassXML

    /// Room for databases of tens of thousands of entries: each keeps about
    /// twenty elements once their past versions, times and icons are skipped.
    static let limits = BoundedXML.Limits(maximumBytes: 64 << 20, maximumDepth: 64, maximumElements: 2_000_000)

    /// What the import never reads, so it is not kept in memory.
    static let skipped: Set<String> = [
        "History", "Times", "AutoType", "CustomIcons", "Binaries", "Binary", "CustomData", "DeletedObjects",
    ]

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document: BoundedXML.Element
        do {
            document = try BoundedXML(data, limits: limits, skipping: skipped).root
        } catch let failure as BoundedXML.Failure {
            throw ImportError.malformed(format, failure.description)
        }
        guard document.name == "KeePassFile", let top = document.child("Root")?.child("Group") else {
            throw ImportError.malformed(format, "it is not a KeePass XML export (no <KeePassFile> with a root group)")
        }
        let recycleBin = document.child("Meta")?.child("RecycleBinUUID")?.text
        var walk = Walk(recycleBin: recycleBin)
        walk.visit(top, path: [])
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: walk.entries.count)
        var withoutCode = 0
        for (index, (element, group)) in walk.entries.enumerated() {
            let fields = Fields(element)
            let position = EntryPosition(number: result.entryCount + 1, description: "entry \(index + 1)")
            guard let code = fields.code else {
                withoutCode += 1
                continue
            }
            let item = KeePassXCFormat.Item(
                title: fields["Title"], userName: fields["UserName"], notes: fields["Notes"], group: group)
            try result.read(position, label: item.label(besides: code.secret)) {
                try code.entry(of: item, at: position)
            }
        }
        if withoutCode > 0 {
            result.warnings.append(leftOut(withoutCode, one: "has no TOTP and was", many: "have no TOTP and were"))
        }
        if walk.recycled > 0 {
            result.warnings.append(
                leftOut(walk.recycled, one: "in the recycle bin was", many: "in the recycle bin were"))
        }
        return result
    }

    private static func leftOut(_ count: Int, one: String, many: String) -> String {
        count == 1 ? "1 entry \(one) left out" : "\(count) entries \(many) left out"
    }

    /// The entries of a group and the groups below it, in file order, with their group's path.
    private struct Walk {
        let recycleBin: String?
        var entries: [(BoundedXML.Element, group: String)] = []
        /// Entries left in the recycle bin.
        var recycled = 0

        mutating func visit(_ group: BoundedXML.Element, path: [String], recycled inRecycleBin: Bool = false) {
            let path = path + [group.child("Name")?.text ?? ""]
            let inRecycleBin = inRecycleBin || (recycleBin != nil && group.child("UUID")?.text == recycleBin)
            for child in group.children {
                switch child.name {
                case "Entry" where inRecycleBin: recycled += 1
                case "Entry": entries.append((child, path.joined(separator: "/")))
                case "Group": visit(child, path: path, recycled: inRecycleBin)
                default: break
                }
            }
        }
    }

    /// An entry's `<String>` fields by key.
    private struct Fields {
        var values: [String: BoundedXML.Element] = [:]

        init(_ entry: BoundedXML.Element) {
            for field in entry.children("String") {
                guard let key = field.child("Key")?.text, let value = field.child("Value") else { continue }
                values[key] = values[key] ?? value
            }
        }

        subscript(key: String) -> String {
            values[key]?.text ?? ""
        }

        /// The entry's code: its `otp` field, else KeePass's own `TimeOtp-`/`HmacOtp-` fields, else the legacy seed.
        var code: Code? {
            if let otp = values["otp"], !otp.text.isBlank { return Code(value: otp, form: .uri) }
            for kind in ["TimeOtp", "HmacOtp"] {
                for encoding in ["-Base32", "-Hex", "-Base64", ""] {
                    guard let secret = values["\(kind)-Secret\(encoding)"], !secret.text.isBlank else { continue }
                    return Code(value: secret, form: .keePass(kind: kind, encoding: encoding, fields: self))
                }
            }
            if let seed = values["TOTP Seed"], !seed.text.isBlank {
                return Code(value: seed, form: .legacy(settings: self["TOTP Settings"]))
            }
            return nil
        }
    }

    /// The field that holds an entry's secret, and how to read it.
    private struct Code {
        enum Form {
            /// `otp`: an `otpauth://` URI or KeeOtp's settings.
            case uri
            /// KeePass 2.47's `TimeOtp-Secret-Base32` and the like, with their parameters' fields.
            case keePass(kind: String, encoding: String, fields: Fields)
            /// `TOTP Seed`, with `TOTP Settings`.
            case legacy(settings: String)
        }

        var value: BoundedXML.Element
        var form: Form

        var secret: String { value.text.trimmingCharacters(in: .whitespacesAndNewlines) }

        func entry(of item: KeePassXCFormat.Item, at position: EntryPosition) throws -> ImportEntry {
            guard value.attributes["Protected"]?.lowercased() != "true" else {
                throw EntryProblem.invalid(
                    "its TOTP is encrypted for the database file it came from; export the database as XML again")
            }
            let otp: OTPParameters
            switch form {
            case .uri:
                return try item.entry(code: secret, position: position)
            case .legacy where secret.lowercased().hasPrefix("otpauth://"):
                return try item.entry(code: secret, position: position)
            case .legacy(let settings):
                otp = try Self.parameters(settings)
            case .keePass(let kind, let encoding, let fields):
                otp = try Self.parameters(kind: kind, fields)
                guard encoding == "-Base32" else {
                    let draft = AccountDraft(
                        issuer: item.title, name: item.userName, otp: otp, secret: try Self.bytes(encoding, value.text))
                    return try item.entry(draft: draft, position: position)
                }
            }
            let draft = try AccountDraft(issuer: item.title, name: item.userName, otp: otp, base32Secret: secret)
            return try item.entry(draft: draft, position: position)
        }

        /// A secret KeePass keeps as hex, base64 or UTF-8 text.
        private static func bytes(_ encoding: String, _ text: String) throws -> SecretBytes {
            switch encoding {
            case "-Hex":
                return try Base16.decode(text)
            case "-Base64":
                let compact = text.filter { !$0.isWhitespace }
                guard let bytes = Data(base64Encoded: compact) else {
                    throw EntryProblem.invalid("its 'Secret-Base64' is not base64")
                }
                return SecretBytes(bytes)
            default:
                return SecretBytes(utf8: text)
            }
        }

        /// `TimeOtp-Length`, `-Period` and `-Algorithm` (`HMAC-SHA-256`), or `HmacOtp-Counter`.
        static func parameters(kind: String, _ fields: Fields) throws -> OTPParameters {
            let number = { (name: String) in try Self.number(fields[name], "its '\(name)' is not a number") }
            guard kind == "TimeOtp" else {
                return OTPParameters(kind: .hotp, counter: UInt64(try number("HmacOtp-Counter") ?? 0))
            }
            let algorithm: OTPAlgorithm
            switch fields["TimeOtp-Algorithm"].uppercased() {
            case "", "HMAC-SHA-1": algorithm = .sha1
            case "HMAC-SHA-256": algorithm = .sha256
            case "HMAC-SHA-512": algorithm = .sha512
            case let other:
                throw EntryProblem.unsupported(
                    "algorithm '\(EntryProblem.shown(other))' is not supported (only SHA1, SHA256 and SHA512)")
            }
            return OTPParameters(
                kind: .totp, algorithm: algorithm, digits: try number("TimeOtp-Length") ?? 6,
                period: try number("TimeOtp-Period") ?? 30)
        }

        /// `STEP;DIGITS` or `STEP;S` (Steam); either part may be left out (30 seconds, 6 digits).
        static func parameters(_ settings: String) throws -> OTPParameters {
            let parts = settings.split(separator: ";", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let problem = "its 'TOTP Settings' are not STEP;DIGITS"
            let period = try number(parts.first ?? "", problem) ?? 30
            let length = parts.count > 1 ? parts[1] : ""
            if length.uppercased() == "S" { return OTPParameters(kind: .steam, period: period) }
            return OTPParameters(kind: .totp, digits: try number(length, problem) ?? 6, period: period)
        }

        private static func number(_ text: String, _ problem: String) throws -> Int? {
            let text = text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let value = Int(text), value >= 0 else { throw EntryProblem.invalid(problem) }
            return value
        }
    }
}

extension String {
    fileprivate var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
