import AuthCatCore
import AuthCatEssentials
import Foundation

/// FreeOTP's accounts, in either of its two forms.
///
/// FreeOTP 1 (and FreeOTP+ inside the app) keeps them in its shared
/// preferences (`tokens.xml`): a `<string>` per token, named `issuer:label`,
/// holding the token as JSON (`{"type", "algo", "digits", "period",
/// "counter", "issuerExt", "label", "secret": [signed bytes]}`), and a
/// `tokenOrder` list. FreeOTP 2's backup (`externalBackup.xml`, despite
/// its name a Java serialized `HashMap<String, String>`) seals each token's
/// secret; see `FreeOTPFormat+Decryption.swift`.
public enum FreeOTPFormat: ImportFormatParser {
    public static let format = ImportFormat.freeOTP

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        if data.starts(with: JavaSerializedStringMap.magic) { return try parseBackup(data, context: context) }
        let preferences = try SharedPreferencesXML.read(data, format: format)
        let tokens = preferences.items.filter { $0.kind == "string" && $0.name != "tokenOrder" }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: tokens.count)
        for (index, item) in ordered(tokens, by: preferences.value("tokenOrder")).enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: item.name) {
                let token = try JSONFields(JSONValue.decode(Data(item.value.utf8)))
                // FreeOTP 1 keeps the counter of the code shown last; the next code uses one more.
                return try entry(token, secret: bytes(token, "secret"), counterOffset: 1, position: position)
            }
        }
        return result
    }

    /// `tokens` in the order `tokenOrder` (a JSON list of names) gives, those it leaves out after, in file order.
    private static func ordered(
        _ tokens: [SharedPreferencesXML.Item], by tokenOrder: String?
    ) -> [SharedPreferencesXML.Item] {
        let order = tokenOrder.flatMap { try? JSONValue.decode(Data($0.utf8)).arrayValue }?.compactMap(\.stringValue)
        guard let order else { return tokens }
        let rank = Dictionary(order.enumerated().map { ($1, $0) }) { first, _ in first }
        return tokens.enumerated().sorted {
            (rank[$0.element.name] ?? order.count + $0.offset, $0.offset)
                < (rank[$1.element.name] ?? order.count + $1.offset, $1.offset)
        }.map(\.element)
    }

    /// One token: TOTP or HOTP (a TOTP of issuer Steam is a Steam account,
    /// as FreeOTP shows it), the issuer from `issuerExt`, the name from
    /// `label`; the counter stored plus `counterOffset`.
    static func entry(
        _ token: JSONFields, secret: SecretBytes, counterOffset: UInt64, position: EntryPosition
    ) throws -> ImportEntry {
        let issuer = try token.optionalString("issuerExt") ?? ""
        var kind: OTPKind
        switch try token.string("type").uppercased() {
        case "TOTP": kind = issuer == "Steam" ? .steam : .totp
        case "HOTP": kind = .hotp
        case let other: throw EntryProblem.unsupportedType(other, thisFormatReads: "TOTP, HOTP and Steam")
        }
        var otp = try token.otpParameters(kind: kind, algorithmKey: "algo")
        if kind == .hotp {
            let (counter, overflow) = otp.counter.addingReportingOverflow(counterOffset)
            guard !overflow, counter <= OTPParameters.maximumCounter else {
                throw EntryProblem.invalid("field 'counter' is too large")
            }
            otp.counter = counter
        }
        let draft = AccountDraft(
            issuer: issuer, name: try token.optionalString("label") ?? "", otp: otp, secret: secret)
        return try ImportEntry(position: position, draft: draft)
    }

    /// The most bytes a byte list may hold: far more than any OTP secret or sealed key.
    static let maximumBytes = 1024

    /// The bytes of the list at `key`: numbers from -128 to 255, as Java's signed bytes are written.
    static func bytes(_ fields: JSONFields, _ key: String) throws -> SecretBytes {
        let list = try fields.array(key)
        guard !list.isEmpty else { throw EntryProblem.invalid("field '\(fields.path)\(key)' is missing or empty") }
        guard list.count <= maximumBytes else {
            throw EntryProblem.invalid("field '\(fields.path)\(key)' holds more than \(maximumBytes) bytes")
        }
        var bytes = Data(count: list.count)
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        for (index, element) in list.enumerated() {
            guard case .number(let value) = element, value.rounded() == value, (-128...255).contains(value) else {
                throw EntryProblem.invalid("field '\(fields.path)\(key)' should hold bytes")
            }
            bytes[index] = UInt8(truncatingIfNeeded: Int(value))
        }
        return SecretBytes(bytes)
    }
}
