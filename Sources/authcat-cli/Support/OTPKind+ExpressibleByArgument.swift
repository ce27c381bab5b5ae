import ArgumentParser
import AuthCatCore

/// `--type totp|hotp|steam|yandex|motp`, in any case.
extension OTPKind: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
