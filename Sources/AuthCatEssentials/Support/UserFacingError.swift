/// An error whose description is safe to show a user.
///
/// The description says what failed and, where it can, what to do about it.
/// It never contains a secret, a passphrase or SQL arguments.
public protocol UserFacingError: Error, CustomStringConvertible {}

/// The one wording for an error that no layer knew how to explain: what
/// failed and the error's type, never its values (which could hold a secret).
public enum UnexpectedError {
    public static func message(_ operation: String, _ error: Error) -> String {
        "\(operation) failed unexpectedly (\(type(of: error)))"
    }
}
