/// One account as `authcat list` shows it: label, type, algorithm, digits,
/// period or next counter, tags. Shared by `authcat-cli` and the quick front
/// `authcat`, so both print the same table.
public enum AccountRow {
    public static func cells(_ account: Account) -> [String] {
        let otp = account.otp
        let step = otp.kind == .hotp ? "counter \(otp.counter)" : "\(otp.period)s"
        return [
            account.label, otp.kind.rawValue, otp.algorithm.rawValue, "\(otp.digits) digits", step,
            account.tags.joined(separator: ","),
        ]
    }
}
