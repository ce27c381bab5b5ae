import AuthCatCore
import AuthCatEssentials

extension AccountDraft {
    /// A draft whose secret is Base32 text from another app, read as those
    /// apps read it (`Base32.decodeSecret`): a length no byte string has is
    /// kept, its extra bits dropped, and `secretLeftover` set so that the
    /// import warns.
    init(
        issuer: String = "", name: String, otp: OTPParameters = OTPParameters(), tags: [String] = [], note: String = "",
        base32Secret text: String
    ) throws {
        let decoded = try Base32.decodeSecret(text)
        self.init(issuer: issuer, name: name, otp: otp, tags: tags, note: note, secret: decoded.secret)
        secretLeftover = decoded.leftover
    }
}
