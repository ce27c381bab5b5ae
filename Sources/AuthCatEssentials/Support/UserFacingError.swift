/// An error whose description is safe to show a user.
///
/// The description says what failed; `nextStep` names what the user can do
/// about it, and the program that shows the error words it (the command line
/// spells the command). It never contains a secret, a passphrase or SQL arguments.
public protocol UserFacingError: Error, CustomStringConvertible {
    var nextStep: NextStep? { get }
}

extension UserFacingError {
    public var nextStep: NextStep? { nil }
}

/// The one wording for an error that no layer knew how to explain: what
/// failed and the error's type, never its values (which could hold a secret).
public enum UnexpectedError {
    public static func message(_ operation: String, _ error: Error) -> String {
        "\(operation) failed unexpectedly (\(type(of: error)))"
    }
}
