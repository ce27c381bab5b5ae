/// An error whose description is safe to show a user.
///
/// The description says what failed and, where it can, what to do about it.
/// It never contains a secret, a passphrase or SQL arguments.
public protocol UserFacingError: Error, CustomStringConvertible {}
