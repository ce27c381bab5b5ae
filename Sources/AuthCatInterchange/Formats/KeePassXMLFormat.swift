import AuthCatCore
import AuthCatEssentials
import Foundation

/// A KeePass 2 XML export: KeePassXC's (Database → Export → XML File, or
/// `keepassxc-cli export --format xml`) or KeePass 2's (Export → KeePass XML
/// (2.x)). `<KeePassFile>` holds `<Meta>` and `<Root>`, whose one `<Group>`
/// nests groups and `<Entry>`s; an entry's fields are `<String>`s of a
/// `<Key>` and a `<Value>`.
///
/// Entries with a TOTP become accounts: the `otp` field (an `otpauth://` URI,
/// or KeeOtp's `key=…&step=…&size=…`) as in the CSV export
/// (`KeePassXCFormat.Item`), or the legacy `TOTP Seed` with `TOTP Settings`
/// (`STEP;DIGITS`, `STEP;S` for Steam). The group below the root becomes a
/// tag, the notes the note. Entries' past versions (`<History>`) and the
/// recycle bin are left out. A plain export writes every value as text
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

        /// The entry's code: its `otp` field, else the legacy seed and settings.
        var code: Code? {
            if let otp = values["otp"], !otp.text.isBlank { return Code(value: otp, settings: nil) }
            if let seed = values["TOTP Seed"], !seed.text.isBlank {
                return Code(value: seed, settings: self["TOTP Settings"])
            }
            return nil
        }
    }

    /// An entry's TOTP field, and the legacy settings that go with a seed.
    private struct Code {
        var value: BoundedXML.Element
        /// `TOTP Settings`, for a `TOTP Seed`.
        var settings: String?

        var secret: String { value.text.trimmingCharacters(in: .whitespacesAndNewlines) }

        func entry(of item: KeePassXCFormat.Item, at position: EntryPosition) throws -> ImportEntry {
            guard value.attributes["Protected"]?.lowercased() != "true" else {
                throw EntryProblem.invalid(
                    "its TOTP is encrypted for the database file it came from; export the database as XML again")
            }
            guard let settings, !secret.lowercased().hasPrefix("otpauth://") else {
                return try item.entry(code: secret, position: position)
            }
            return try item.entry(
                draft: AccountDraft(
                    issuer: item.title, name: item.userName, otp: try Self.parameters(settings), base32Secret: secret),
                position: position)
        }

        /// `STEP;DIGITS` or `STEP;S` (Steam); either part may be left out (30 seconds, 6 digits).
        static func parameters(_ settings: String) throws -> OTPParameters {
            let parts = settings.split(separator: ";", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let period = try number(parts.first ?? "") ?? 30
            let length = parts.count > 1 ? parts[1] : ""
            if length.uppercased() == "S" { return OTPParameters(kind: .steam, period: period) }
            return OTPParameters(kind: .totp, digits: try number(length) ?? 6, period: period)
        }

        private static func number(_ text: String) throws -> Int? {
            guard !text.isEmpty else { return nil }
            guard let value = Int(text), value > 0 else {
                throw EntryProblem.invalid("its 'TOTP Settings' are not STEP;DIGITS")
            }
            return value
        }
    }
}

extension String {
    fileprivate var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
