import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange

// The library types options take as values (`ExpressibleByArgument`), kept
// together; a value type of the command line's own is in its own file
// (`SessionLength`).

/// `--algorithm sha1|sha256|sha512`, in any case. MD5 is not offered: only
/// mOTP uses it, and `--type motp` implies it.
extension OTPAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        guard let algorithm = OTPAlgorithm(rawValue: argument.lowercased()), algorithm != .md5 else { return nil }
        self = algorithm
    }

    public static var allValueStrings: [String] {
        allCases.filter { $0 != .md5 }.map(\.rawValue)
    }
}

/// `--type totp|hotp|steam|yandex|motp`, in any case.
extension OTPKind: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}

/// `import --format` (detected from the content when left out).
extension ImportFormat: ExpressibleByArgument {}

/// `export --format`.
extension ExportFormat: ExpressibleByArgument {}
