/// The text of `authcat list --json`, written directly: the same bytes as
/// `JSONOutput` makes of `AccountSummary`s through `JSONEncoder` (pretty,
/// keys sorted, slashes unescaped), which a test checks on hostile names.
///
/// Listing is the one `--json` output that grows with the vault, and the
/// quick front answers it; building it from fixed keys takes a fraction of
/// what Foundation's encoder spends on 10,000 accounts (docs/PERFORMANCE.md).
public enum AccountListJSON {
    public static func text(_ accounts: [Account]) -> String {
        guard !accounts.isEmpty else { return "[]" }
        var out = "[\n"
        out.reserveCapacity(accounts.count * 256)
        for (index, account) in accounts.enumerated() {
            let otp = account.otp
            out += "  {\n"
            out += "    \"algorithm\" : \"\(otp.algorithm.rawValue)\",\n"
            out += "    \"counter\" : \(otp.kind == .hotp ? String(otp.counter) : "null"),\n"
            out += "    \"digits\" : \(otp.digits),\n"
            out += "    \"id\" : \"\(account.id.vaultString)\",\n"
            out += "    \"issuer\" : "
            if account.issuer.isEmpty { out += "null" } else { appendString(account.issuer, to: &out) }
            out += ",\n    \"name\" : "
            appendString(account.name, to: &out)
            out += ",\n    \"period\" : \(otp.kind == .hotp ? "null" : String(otp.period)),\n"
            out += "    \"tags\" : "
            appendTags(account.tags, to: &out)
            out += ",\n    \"type\" : \"\(otp.kind.rawValue)\"\n"
            out += index == accounts.count - 1 ? "  }\n" : "  },\n"
        }
        return out + "]"
    }

    private static func appendTags(_ tags: [String], to out: inout String) {
        // JSONEncoder pretty-prints an empty array as "[", a blank line, "]";
        // JSONOutput folds that to "[]".
        guard !tags.isEmpty else {
            out += "[]"
            return
        }
        out += "[\n"
        for (index, tag) in tags.enumerated() {
            out += "      "
            appendString(tag, to: &out)
            out += index == tags.count - 1 ? "\n" : ",\n"
        }
        out += "    ]"
    }

    /// A JSON string as JSONEncoder writes it: `"` and `\` escaped, the short
    /// escapes for backspace, tab, line feed, form feed and carriage return,
    /// `\u00xx` for other control characters, everything else as it is.
    private static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0C: out += "\\f"
            case 0x0D: out += "\\r"
            case 0..<0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
