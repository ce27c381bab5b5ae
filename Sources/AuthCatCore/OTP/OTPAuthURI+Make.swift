extension OTPAuthURI {
    /// The otpauth URI of an account, the inverse of `parse`.
    ///
    /// Writes `otpauth://TYPE/Issuer:name?secret=…&issuer=…&algorithm=…&digits=…`
    /// then `period=…` (TOTP, Steam) or `counter=…` (HOTP); Steam accounts
    /// are `totp` URIs ending in `encoder=steam`. Issuer and name are
    /// percent-encoded, the label's own colon is not. Without an issuer the
    /// label is just the name, unless the name has a colon: then the label
    /// starts with a colon, so that no part of the name is read as an issuer.
    ///
    /// The result contains the secret: keep it out of argv, logs and errors.
    public static func make(issuer: String, name: String, parameters: OTPParameters, secret: SecretBytes) -> String {
        let label: String
        if !issuer.isEmpty {
            label = PercentEncoding.encode(issuer) + ":" + PercentEncoding.encode(name)
        } else {
            label = (name.contains(":") ? ":" : "") + PercentEncoding.encode(name)
        }
        var query = ["secret=" + Base32.encode(secret)]
        if !issuer.isEmpty { query.append("issuer=" + PercentEncoding.encode(issuer)) }
        query.append("algorithm=" + parameters.algorithm.rawValue.uppercased())
        query.append("digits=\(parameters.digits)")
        switch parameters.kind {
        case .totp: query.append("period=\(parameters.period)")
        case .hotp: query.append("counter=\(parameters.counter)")
        case .steam: query += ["period=\(parameters.period)", "encoder=steam"]
        }
        let type = parameters.kind == .hotp ? "hotp" : "totp"
        return "\(scheme)://\(type)/\(label)?" + query.joined(separator: "&")
    }
}
