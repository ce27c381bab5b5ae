import AuthCatCore
import AuthCatEssentials

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
