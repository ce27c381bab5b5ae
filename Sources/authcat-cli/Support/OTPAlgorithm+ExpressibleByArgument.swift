import ArgumentParser
import AuthCatCore

/// `--algorithm sha1|sha256|sha512`, in any case.
extension OTPAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
