import Crypto
import Foundation

/// The chain hash of a stored object: SHA-256 of all its bytes, lowercase hex.
/// Public for remotes outside this module (the test remote) that report it as an object's version.
public enum ObjectHash {
    public static func of(_ object: Data) -> String {
        SHA256.hash(data: object).map { String(format: "%02x", $0) }.joined()
    }
}
