import AuthCatEssentials
import CSodium

extension KDFParameters {
    /// The smallest limits libsodium accepts; only for tests, where strength does not matter.
    public static func minimumForTesting() throws -> KDFParameters {
        try KDFParameters(opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MIN), memLimit: UInt64(crypto_pwhash_MEMLIMIT_MIN))
    }
}
