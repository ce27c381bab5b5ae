import AuthCatEssentials

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
    /// Yandex accounts are `otpauth://yaotp/…` and mOTP accounts
    /// `motp://Issuer:name?secret=HEX`, as Aegis writes them; both end in
    /// `pin=` and the Base32 of the PIN when `pin` is given.
    ///
    /// The result contains the secret (and PIN): keep it out of argv, logs and errors.
    public static func make(
        issuer: String, name: String, parameters: OTPParameters, secret: SecretBytes,
        pin: SecretBytes? = nil
    ) -> String {
        let label: String
        if !issuer.isEmpty {
            label = PercentEncoding.encode(issuer) + ":" + PercentEncoding.encode(name)
        } else {
            label = (name.contains(":") ? ":" : "") + PercentEncoding.encode(name)
        }
        let pinItem = pin.map { "pin=" + Base32.encode($0) }
        if parameters.kind == .motp {
            var query = ["secret=" + Base16.encode(secret)]
            if !issuer.isEmpty { query.append("issuer=" + PercentEncoding.encode(issuer)) }
            return "\(motpScheme)://\(label)?" + (query + [pinItem].compactMap { $0 }).joined(separator: "&")
        }
        var query = ["secret=" + Base32.encode(secret)]
        if !issuer.isEmpty { query.append("issuer=" + PercentEncoding.encode(issuer)) }
        query.append("algorithm=" + parameters.algorithm.rawValue.uppercased())
        query.append("digits=\(parameters.digits)")
        let type: String
        switch parameters.kind {
        case .totp, .motp:
            type = "totp"
            query.append("period=\(parameters.period)")
        case .hotp:
            type = "hotp"
            query.append("counter=\(parameters.counter)")
        case .steam:
            type = "totp"
            query += ["period=\(parameters.period)", "encoder=steam"]
        case .yandex:
            type = yandexType
            query.append("period=\(parameters.period)")
            if let pinItem { query.append(pinItem) }
        }
        return "\(scheme)://\(type)/\(label)?" + query.joined(separator: "&")
    }
}
